import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { doNotKeepAnswer, heldIdempotencyKey, idempotentRoute } from '../http/idempotency/hooks.js';
import { redactCardNumbers } from '../kernel/card-numbers/card-numbers.js';
import { judgeHeldKey } from '../payments/flow/held-keys.js';
import { getPolicySummary } from '../policies/service.js';
import { previewAmendment } from './amendments.js';
import { previewCancellation } from './cancellations.js';
import { confirmChange, readChange, type ChangeLookup } from './confirmations.js';
import { outcomeNotifications } from './outcomes.js';
import { changeDepsFor } from './deps.js';
import { emptyBodyAsObject } from '../http/guards/empty-body.js';
import { amendmentReferralView } from './referrals.js';
import { isRetryableEnd, type ChangeKind, type PolicyChange, type PreviewResult } from './model.js';
import { amendmentView, cancellationView, confirmationView } from './present.js';
import {
  CONFIRM_AMENDMENT_ERRORS,
  CONFIRM_CANCELLATION_ERRORS,
  PREVIEW_AMENDMENT_ERRORS,
  PREVIEW_CANCELLATION_ERRORS,
  READ_AMENDMENT_ERRORS,
  READ_CANCELLATION_ERRORS,
} from './route-errors.js';
import { changeMoney } from './settlement.js';
import {
  Amendment,
  AmendmentConfirmRequest,
  AmendmentParams,
  AmendmentRequest,
  Cancellation,
  CancellationConfirmRequest,
  CancellationParams,
  CancellationRequest,
  PolicyChangeConfirmation,
  PolicyChangeParams,
} from './schemas.js';

const BASE = '/policies/v1/:brandCode/policies/:policyNumber';
const NOT_FOUND =
  '404 `POLICY_NOT_FOUND` unless the caller’s partner sold the policy under `{brandCode}`; 409 `POLICY_CANCELLED` once it is cancelled.';

/** The end customer's client: the body's `clientInfo`, else the connection (card numbers in the header redacted). */
function clientOf(request: FastifyRequest, info?: { ipAddress?: string; userAgent?: string }) {
  const header = request.headers['user-agent'];
  const userAgent = info?.userAgent ?? (header === undefined ? undefined : redactCardNumbers(header));
  return { ipAddress: info?.ipAddress ?? request.ip, ...(userAgent !== undefined ? { userAgent } : {}) };
}

/**
 * A recorded change as its preview answered it (reads by id), with the Notification of a
 * confirmation that ended short (a refund refused or incomplete, a charge released).
 */
const storedPreview = (change: PolicyChange): PreviewResult => ({
  change,
  pricing: change.pricing,
  sequenceNumber: change.sequenceNumber ?? change.baseSequenceNumber + 1,
  currency: change.currency,
  notifications: change.state === 'PREVIEW' ? [] : outcomeNotifications(change),
});

/** Amendments and cancellations of a policy (docs/api-contract.md, "Changing a policy"); protected scope. */
export const policyChangeRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = (app, { context }) => {
  const deps = (request: FastifyRequest) => changeDepsFor(context, app.paymentGateways, request.log);
  const now = () => context.clock().toISOString();
  const previewView = (kind: ChangeKind, policyNumber: string, result: PreviewResult) => {
    const args = {
      ...(result.change ? { change: result.change } : {}),
      policyNumber,
      sequenceNumber: result.sequenceNumber,
      currencyCode: result.currency,
      notifications: result.notifications,
      now: now(),
    };
    return kind === 'AMENDMENT'
      ? amendmentView({
          ...args,
          ...(result.pricing?.kind === 'AMENDMENT' ? { pricing: result.pricing } : {}),
          ...(result.referral ? { referral: result.referral } : {}),
        })
      : cancellationView({ ...args, ...(result.pricing?.kind === 'CANCELLATION' ? { pricing: result.pricing } : {}) });
  };
  const lookup = (request: FastifyRequest, kind: ChangeKind, changeId: string): ChangeLookup => {
    const { brandCode, policyNumber } = request.params as PolicyChangeParams;
    return { actor: principalOf(request), brandCode, policyNumber, kind, changeId };
  };
  // A retry after a crash takes the dead request's key over once its change has an answer (or recovery's grace passed).
  // Confirmations move money: they must carry a key, so a retry never moves it twice.
  const confirmation = idempotentRoute({
    scopeOf: (request) => `partner:${principalOf(request).partnerId}`,
    inFlight: (_request, held) => judgeHeldKey(changeMoney, context, context.config.purchaseRecoveryGraceSeconds, held),
    required: 'Idempotency-Key header is required to confirm a change (a retry replays).',
  });

  app.post(
    `${BASE}/amendments`,
    {
      schema: {
        tags: ['policy changes'],
        operationId: 'previewAmendment',
        summary: 'Price an amendment of a policy',
        description:
          'The policy’s new trip, travellers and options as a QuoteInput (validated like a quote), priced at today’s rates and compared part by part with what the policy has paid: `difference.transactionAmount` is positive when the customer pays, negative when refunded. Nothing changes until it is confirmed (before `expiresAt`). What may not change is refused with Notifications in a 200 with `validation.isValid: false` (no `id`: nothing is kept). ' +
          NOT_FOUND,
        params: PolicyChangeParams,
        body: AmendmentRequest,
        response: {
          200: Amendment,
          ...PREVIEW_AMENDMENT_ERRORS,
        },
      },
    },
    async (request) => {
      const { brandCode, policyNumber } = request.params;
      const result = await previewAmendment(deps(request), {
        actor: principalOf(request),
        brandCode,
        policyNumber,
        input: request.body.input,
        client: clientOf(request, request.body.clientInfo),
      });
      return previewView('AMENDMENT', policyNumber, result);
    },
  );

  app.post(
    `${BASE}/cancellations`,
    {
      schema: {
        tags: ['policy changes'],
        operationId: 'previewCancellation',
        summary: 'Price the cancellation of a policy',
        description:
          'The refund the policy would get if cancelled from `effectiveDate` (default today in the policy’s zone), with its basis: `COOLING_OFF` (everything back), `PRO_RATA` (the unused cover, less any cancellation fee) or `NONE`, per the brand’s rules. Nothing changes until it is confirmed (before `expiresAt`). ' +
          NOT_FOUND,
        params: PolicyChangeParams,
        body: CancellationRequest,
        response: {
          200: Cancellation,
          ...PREVIEW_CANCELLATION_ERRORS,
        },
      },
    },
    async (request) => {
      const { brandCode, policyNumber } = request.params;
      const result = await previewCancellation(deps(request), {
        actor: principalOf(request),
        brandCode,
        policyNumber,
        reasonCode: request.body.reasonCode,
        ...(request.body.effectiveDate !== undefined ? { effectiveDate: request.body.effectiveDate } : {}),
        client: clientOf(request, request.body.clientInfo),
      });
      return previewView('CANCELLATION', policyNumber, result);
    },
  );

  const confirmDescription = (what: string) =>
    `${what} Requires \`Idempotency-Key\` (400 \`IDEMPOTENCY_KEY_REQUIRED\`): a retry replays the answer. 409 \`AMENDMENT_EXPIRED\`/\`CANCELLATION_EXPIRED\` after \`expiresAt\`, \`…_STALE\` when the policy changed since the preview, \`POLICY_CHANGE_IN_PROGRESS\` while another change of the policy is being confirmed, \`…_ALREADY_CONFIRMED\`. ${NOT_FOUND}`;

  app.post(
    `${BASE}/amendments/:amendmentId/confirm`,
    {
      ...confirmation,
      schema: {
        tags: ['policy changes'],
        operationId: 'confirmAmendment',
        summary: 'Apply a priced amendment',
        description: confirmDescription(
          'Applies the preview: a new `Amendment` transaction (next sequence number) and the charge (`cardToken`, 3-D Secure exactly as in a purchase: answer a challenge by calling again with `threeDSRequestInfo`) or the refund to the policy’s own card; a policy bought on account is charged to, or credited on, the partner’s account (no card; one sent is 400 `CARD_TOKEN_NOT_ACCEPTED`). A declined card answers 200 with `validation.isValid: false`; the preview may be confirmed again with another card.',
        ),
        params: AmendmentParams,
        body: AmendmentConfirmRequest,
        response: {
          200: PolicyChangeConfirmation,
          ...CONFIRM_AMENDMENT_ERRORS,
        },
      },
    },
    async (request) => {
      const body = request.body;
      const key = heldIdempotencyKey(request);
      const info = body.threeDSRequestInfo;
      const result = await confirmChange(deps(request), {
        ...lookup(request, 'AMENDMENT', request.params.amendmentId),
        ...(body.cardToken?.token !== undefined ? { cardToken: body.cardToken.token } : {}),
        ...(info?.threeDSRequest !== undefined
          ? {
              threeDS: {
                threeDSRequest: info.threeDSRequest,
                ...(info.threeDSStatus ? { threeDSStatus: info.threeDSStatus } : {}),
              },
            }
          : {}),
        ...(info?.origin !== undefined ? { returnUrl: info.origin } : {}),
        ...(key !== undefined ? { idempotencyKey: key } : {}),
      });
      // An outage before anything was charged is not a final answer: a retry with the same key reaches the gateway again.
      if (isRetryableEnd(result.change)) doNotKeepAnswer(request);
      const policy = await getPolicySummary(context.db, {
        ...request.params,
        partnerId: principalOf(request).partnerId,
      });
      return confirmationView({ ...result, policy, now: now() });
    },
  );

  app.post(
    `${BASE}/cancellations/:cancellationId/confirm`,
    {
      preValidation: [emptyBodyAsObject],
      ...confirmation,
      schema: {
        tags: ['policy changes'],
        operationId: 'confirmCancellation',
        summary: 'Cancel a policy as previewed',
        description: confirmDescription(
          'Refunds the previewed amount to the policy’s own card (through the gateway, never more than was captured), writes the `Cancellation` transaction and cancels the policy (`policyStatus` `Cancelled`). The body is optional. A card that refuses the refund answers 200 with `validation.isValid: false` (`REFUND_DECLINED`) and changes nothing. A gateway outage is retried by recovery (`IN_PROGRESS`) up to a bound; a refund that ends with only a part refunded cancels with that part booked (`REFUND_INCOMPLETE`, an operator pays the rest).',
        ),
        params: CancellationParams,
        body: CancellationConfirmRequest,
        response: {
          200: PolicyChangeConfirmation,
          ...CONFIRM_CANCELLATION_ERRORS,
        },
      },
    },
    async (request) => {
      const key = heldIdempotencyKey(request);
      const result = await confirmChange(deps(request), {
        ...lookup(request, 'CANCELLATION', request.params.cancellationId),
        ...(key !== undefined ? { idempotencyKey: key } : {}),
      });
      if (isRetryableEnd(result.change)) doNotKeepAnswer(request);
      const policy = await getPolicySummary(context.db, {
        ...request.params,
        partnerId: principalOf(request).partnerId,
      });
      return confirmationView({ ...result, policy, now: now() });
    },
  );

  app.get(
    `${BASE}/amendments/:amendmentId`,
    {
      schema: {
        tags: ['policy changes'],
        operationId: 'getAmendment',
        summary: 'An amendment by id',
        description: `The amendment as previewed, with its \`status\` now. 404 \`AMENDMENT_NOT_FOUND\` for an unknown id or another policy’s. ${NOT_FOUND}`,
        params: AmendmentParams,
        response: {
          200: Amendment,
          ...READ_AMENDMENT_ERRORS,
        },
      },
    },
    async (request) => {
      const change = await readChange(deps(request), lookup(request, 'AMENDMENT', request.params.amendmentId));
      // A referred amendment shows its referral now (decided, or the question asked).
      const referral = await amendmentReferralView(context.db, change.id);
      return previewView('AMENDMENT', change.policyNumber, {
        ...storedPreview(change),
        ...(referral ? { referral } : {}),
      });
    },
  );

  app.get(
    `${BASE}/cancellations/:cancellationId`,
    {
      schema: {
        tags: ['policy changes'],
        operationId: 'getCancellation',
        summary: 'A cancellation by id',
        description: `The cancellation as previewed, with its \`status\` now. 404 \`CANCELLATION_NOT_FOUND\` for an unknown id or another policy’s. ${NOT_FOUND}`,
        params: CancellationParams,
        response: {
          200: Cancellation,
          ...READ_CANCELLATION_ERRORS,
        },
      },
    },
    async (request) => {
      const change = await readChange(deps(request), lookup(request, 'CANCELLATION', request.params.cancellationId));
      return previewView('CANCELLATION', change.policyNumber, storedPreview(change));
    },
  );
  return Promise.resolve();
};
