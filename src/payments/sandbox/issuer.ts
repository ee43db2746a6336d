import { randomToken } from '../../kernel/crypto/random-token.js';
import { newOrderedToken } from '../../kernel/ids/ordered-ids.js';
import type { Tx } from '../../db/database.js';
import type {
  AuthorisationOutcome,
  AuthoriseRequest,
  CaptureRequest,
  ContinueThreeDsRequest,
  DeclineReason,
  GatewayError,
  Money,
  SettlementOutcome,
  ThreeDsStatus,
  VoidRequest,
} from '../gateway.js';
import { behaviourOf, CHALLENGE_TTL_MS, refundBehaviourOf } from './cards.js';
import {
  captureAuthorised,
  findPayment,
  updatePayment,
  type PaymentValues,
  type SandboxPaymentRow,
} from './repository.js';

/**
 * What the sandbox "card processor and issuer" does for each call, inside the transaction that
 * also records the call's idempotency key. `store: false` marks an answer that must not be
 * replayed (an outage, a challenge not answered yet): retrying the same key asks again.
 */
export interface Step<T> {
  readonly outcome: T;
  readonly store: boolean;
}

export interface IssuerContext {
  readonly now: Date;
  /** Absolute URL of the challenge pages, without the trailing challenge id. */
  readonly challengeBaseUrl: string;
}

/** The sandbox's simulated outage (the test cards that fail at the gateway); a retry may succeed. */
const SIMULATED_OUTAGE: Step<GatewayError> = {
  outcome: {
    outcome: 'gateway_error',
    code: 'SANDBOX_GATEWAY_ERROR',
    message: 'The sandbox gateway simulated an outage.',
    retryable: true,
  },
  store: false,
};

const stored = <T>(outcome: T): Step<T> => ({ outcome, store: true });

function moneyOf(row: SandboxPaymentRow, amountMinor = row.amount_minor): Money {
  return { amountMinor, currency: row.currency };
}

/** The authorisation outcome a payment's current state stands for. */
export function outcomeOfPayment(row: SandboxPaymentRow, challengeBaseUrl: string): AuthorisationOutcome {
  const threeDSStatus = row.three_ds_status as ThreeDsStatus;
  if (row.status === 'authorised')
    return { outcome: 'approved', paymentId: row.payment_id, amount: moneyOf(row), threeDSStatus };
  if (row.status === 'challenge' && row.challenge_id && row.challenge_expires_at) {
    return {
      outcome: 'challenge_required',
      paymentId: row.payment_id,
      challenge: {
        challengeId: row.challenge_id,
        threeDSStatus: 'CHALLENGE_REQUIRED',
        threeDSRequestPattern: 'REDIRECT',
        threeDSResponse: `${challengeBaseUrl}/${row.challenge_id}`,
        expiresAt: row.challenge_expires_at,
      },
    };
  }
  if (row.decline_reason === 'INSUFFICIENT_FUNDS')
    return { outcome: 'insufficient_funds', paymentId: row.payment_id, threeDSStatus };
  const reason = (row.decline_reason ?? 'DO_NOT_HONOUR') as DeclineReason;
  return { outcome: 'declined', paymentId: row.payment_id, reason, threeDSStatus };
}

/**
 * What the issuer decides for an authorisation, without reading anything: the new payment (none
 * for a simulated outage) and the outcome. The gateway writes the payment with the call's record.
 */
export function authorisationOf(
  request: AuthoriseRequest,
  ctx: IssuerContext,
): { payment?: PaymentValues; step: Step<AuthorisationOutcome> } {
  const behaviour = behaviourOf(request.cardToken);
  if (behaviour === 'gateway_error') return { step: SIMULATED_OUTAGE };
  const now = ctx.now.toISOString();
  const row: SandboxPaymentRow = {
    id: 0,
    // Ordered by time (the payments' primary key grows at its end); a challenge's id stays random (it is in its page's URL).
    payment_id: `sbx_pay_${newOrderedToken()}`,
    reference: request.reference,
    // Only the sandbox's own test tokens are kept: an unknown one (a card number, even) never is.
    card_token: behaviour === 'unknown' ? '[UNKNOWN TOKEN]' : request.cardToken,
    amount_minor: request.amount.amountMinor,
    currency: request.amount.currency,
    status: 'authorised',
    three_ds_status: 'NOT_REQUIRED',
    decline_reason: null,
    captured_minor: 0,
    refunded_minor: 0,
    challenge_id: null,
    challenge_answer: null,
    challenge_expires_at: null,
    merchant_name: request.checkout?.merchantName ?? null,
    return_url: request.checkout?.returnUrl ?? null,
    created_at: now,
    updated_at: now,
  };
  if (behaviour === 'frictionless') row.three_ds_status = 'FRICTIONLESS';
  if (behaviour === 'decline' || behaviour === 'unknown') {
    row.status = 'declined';
    row.decline_reason = behaviour === 'unknown' ? 'INVALID_CARD_TOKEN' : 'DO_NOT_HONOUR';
  }
  if (behaviour === 'insufficient_funds') {
    row.status = 'declined';
    row.decline_reason = 'INSUFFICIENT_FUNDS';
  }
  if (behaviour === 'challenge') {
    row.status = 'challenge';
    row.three_ds_status = 'CHALLENGE_REQUIRED';
    row.challenge_id = `sbx_3ds_${randomToken(12)}`;
    row.challenge_expires_at = new Date(ctx.now.getTime() + CHALLENGE_TTL_MS).toISOString();
  }
  const { id: _id, ...payment } = row;
  return { payment, step: stored(outcomeOfPayment(row, ctx.challengeBaseUrl)) };
}

const CONTINUATION_STATUSES = new Set(['CHALLENGE_COMPLETED', 'CHALLENGE_FAILED']);

/** A call the processor refuses before acting: not recorded, so the same key may carry a corrected call. */
function refused(code: string, message: string): Step<AuthorisationOutcome> {
  return { outcome: { outcome: 'gateway_error', code, message, retryable: false }, store: false };
}

/** The issuer's record of the challenge decides; the merchant's echo must name the right challenge. */
export async function continueThreeDs(
  tx: Tx,
  request: ContinueThreeDsRequest,
  ctx: IssuerContext,
): Promise<Step<AuthorisationOutcome>> {
  const row = await findPayment(tx, request.paymentId);
  if (!row) return refused('PAYMENT_NOT_FOUND', 'No such payment.');
  const challengeId = request.threeDSRequest.split(/[/?#]/).filter(Boolean).at(-1) ?? '';
  if (row.challenge_id === null || challengeId !== row.challenge_id) {
    return refused('THREEDS_REQUEST_MISMATCH', "threeDSRequest does not name this payment's challenge.");
  }
  if (!CONTINUATION_STATUSES.has(request.threeDSStatus)) {
    return refused('THREEDS_STATUS_INVALID', 'threeDSStatus must be CHALLENGE_COMPLETED or CHALLENGE_FAILED.');
  }
  if (row.status === 'voided') return refused('PAYMENT_VOIDED', 'The payment was voided.');
  if (row.status !== 'challenge') return stored(outcomeOfPayment(row, ctx.challengeBaseUrl));
  const now = ctx.now.toISOString();
  const expired = (row.challenge_expires_at ?? '') <= now;
  if (row.challenge_answer === null && !expired) {
    // The cardholder has not answered yet: say so again, and let a later retry of this key decide.
    return { outcome: outcomeOfPayment(row, ctx.challengeBaseUrl), store: false };
  }
  const patch =
    row.challenge_answer === 'approved'
      ? { status: 'authorised', three_ds_status: 'CHALLENGE_COMPLETED', updated_at: now }
      : {
          status: 'declined',
          three_ds_status: 'CHALLENGE_FAILED',
          decline_reason:
            row.challenge_answer === 'declined' ? 'THREEDS_CHALLENGE_FAILED' : 'THREEDS_CHALLENGE_EXPIRED',
          updated_at: now,
        };
  await updatePayment(tx, row.payment_id, patch);
  return stored(outcomeOfPayment({ ...row, ...patch }, ctx.challengeBaseUrl));
}

function rejected(paymentId: string, code: string, message: string): Step<SettlementOutcome> {
  return stored({ outcome: 'rejected', paymentId, code, message });
}

export async function capture(tx: Tx, request: CaptureRequest, now: Date): Promise<Step<SettlementOutcome>> {
  // One statement when the capture is allowed (nearly always): the update checks what the reads below would.
  const { amountMinor, currency } = request.amount;
  if (await captureAuthorised(tx, { paymentId: request.paymentId, currency, amountMinor, at: now.toISOString() })) {
    return stored({ outcome: 'captured', paymentId: request.paymentId, amount: request.amount });
  }
  const row = await findPayment(tx, request.paymentId);
  if (!row) return rejected(request.paymentId, 'PAYMENT_NOT_FOUND', 'No such payment.');
  if (row.status !== 'authorised')
    return rejected(row.payment_id, 'NOT_AUTHORISED', `The payment is ${row.status}, not authorised.`);
  if (request.amount.currency !== row.currency)
    return rejected(row.payment_id, 'CURRENCY_MISMATCH', `The payment is in ${row.currency}.`);
  const left = row.amount_minor - row.captured_minor;
  if (request.amount.amountMinor > left)
    return rejected(row.payment_id, 'AMOUNT_EXCEEDS_AUTHORISED', `At most ${left} can be captured.`);
  await updatePayment(tx, row.payment_id, {
    captured_minor: row.captured_minor + request.amount.amountMinor,
    updated_at: now.toISOString(),
  });
  return stored({ outcome: 'captured', paymentId: row.payment_id, amount: request.amount });
}

export async function voidPayment(tx: Tx, request: VoidRequest, now: Date): Promise<Step<SettlementOutcome>> {
  const row = await findPayment(tx, request.paymentId);
  if (!row) return rejected(request.paymentId, 'PAYMENT_NOT_FOUND', 'No such payment.');
  if (row.captured_minor > 0)
    return rejected(row.payment_id, 'ALREADY_CAPTURED', 'A captured payment is refunded, not voided.');
  if (row.status !== 'authorised' && row.status !== 'challenge') {
    return rejected(row.payment_id, 'NOT_VOIDABLE', `The payment is ${row.status}.`);
  }
  // A pending challenge held nothing yet: voiding it releases nothing.
  const released = row.status === 'authorised' ? row.amount_minor : 0;
  await updatePayment(tx, row.payment_id, { status: 'voided', updated_at: now.toISOString() });
  return stored({ outcome: 'voided', paymentId: row.payment_id, amount: moneyOf(row, released) });
}

/**
 * The refund test cards act once the payment is known: an outage before any check (nothing is
 * recorded, the same key may run again); a decline after the processor's own checks (recorded).
 */
export async function refund(tx: Tx, request: CaptureRequest, now: Date): Promise<Step<SettlementOutcome>> {
  const row = await findPayment(tx, request.paymentId);
  if (!row) return rejected(request.paymentId, 'PAYMENT_NOT_FOUND', 'No such payment.');
  const behaviour = refundBehaviourOf(row.card_token);
  if (behaviour === 'gateway_error') return SIMULATED_OUTAGE;
  if (request.amount.currency !== row.currency)
    return rejected(row.payment_id, 'CURRENCY_MISMATCH', `The payment is in ${row.currency}.`);
  const left = row.captured_minor - row.refunded_minor;
  if (request.amount.amountMinor > left)
    return rejected(row.payment_id, 'AMOUNT_EXCEEDS_CAPTURED', `At most ${left} can be refunded.`);
  if (behaviour === 'decline') return rejected(row.payment_id, 'REFUND_DECLINED', 'The refund was declined.');
  await updatePayment(tx, row.payment_id, {
    refunded_minor: row.refunded_minor + request.amount.amountMinor,
    updated_at: now.toISOString(),
  });
  return stored({ outcome: 'refunded', paymentId: row.payment_id, amount: request.amount });
}
