import type { Actor } from '../auth/principal.js';
import type { BrandCode } from '../kernel/brands.js';
import type { Notification } from '../kernel/notifications/notification.js';
import { problem } from '../kernel/notifications/problems.js';
import type { HeldKey } from '../http/idempotency/service.js';
import { authorise, continueChallenge, isWaiting } from '../payments/flow/flow.js';
import { CardTokenNotAccepted } from '../payments/errors.js';
import { checkoutOf } from '../payments/three-ds.js';
import { PolicyNotFound } from '../policies/errors.js';
import { findPolicy } from '../policies/repository.js';
import { policyPosition } from '../policies/repository-transactions.js';
import type { Executor } from '../db/database.js';
import type { ChangeDeps } from './deps.js';
import { isRefusal, PolicyChangeInProgress, PolicyChangeNotFound, refusalError, type Refusal } from './errors.js';
import { changeOfSubject, isRetryableEnd, type ChangeKind, type PolicyChange } from './model.js';
import { outcomeNotifications } from './outcomes.js';
import { findChange, moveChange } from './repository.js';
import { referralRefusal } from './referrals.js';
import { refundChange } from './refunds.js';
import { advanceChange, changeMoney, holdPolicy, holdRefund, settleWithoutMoney } from './settlement.js';

/**
 * Confirming a preview (docs/api-contract.md, "Confirming a change"): checks it may still apply,
 * holds the policy (one change at a time), then moves the money through settlement.ts: a charge
 * to the card sent now (3-D Secure as in a purchase), a refund to the policy's own payments, or
 * nothing. Business outcomes (declined, challenge, refused refund) are results, not errors.
 */
export interface ChangeLookup {
  readonly actor: Actor;
  readonly brandCode: BrandCode;
  readonly policyNumber: string;
  readonly kind: ChangeKind;
  readonly changeId: string;
}

export interface ConfirmCall extends ChangeLookup {
  readonly cardToken?: string;
  readonly threeDS?: { readonly threeDSStatus?: string; readonly threeDSRequest?: string };
  /** `threeDSRequestInfo.origin`: where a challenge page sends the cardholder back. */
  readonly returnUrl?: string;
  /** The Idempotency-Key this request holds: the attempt it holds or continues is named on it. */
  readonly idempotencyKey?: HeldKey;
}

export interface ConfirmResult {
  readonly change: PolicyChange;
  readonly notifications: Notification[];
}

export async function readChange(deps: ChangeDeps, lookup: ChangeLookup): Promise<PolicyChange> {
  const change = await findChange(deps.db, {
    id: lookup.changeId,
    kind: lookup.kind,
    policyNumber: lookup.policyNumber,
    brandCode: lookup.brandCode,
    partnerId: lookup.actor.partnerId,
  });
  if (change) return change;
  // Another partner's or brand's policy is not theirs to know of (docs/api-contract.md, "Visibility").
  const policy = await findPolicy(deps.db, {
    policyNumber: lookup.policyNumber,
    brandCode: lookup.brandCode,
    partnerId: lookup.actor.partnerId,
  });
  if (!policy) throw new PolicyNotFound(lookup.policyNumber);
  throw new PolicyChangeNotFound(lookup.kind, lookup.changeId);
}

export async function confirmChange(deps: ChangeDeps, call: ConfirmCall): Promise<ConfirmResult> {
  const change = await readChange(deps, call);
  // A retry of this very confirmation (its answer never kept): finish it, answer it.
  if (isOwnAttempt(change, call)) return answer(await advanceChange(deps, change));
  if (call.threeDS?.threeDSRequest !== undefined) return continueWaiting(deps, change, call);
  const at = deps.clock().toISOString();
  const policy = await confirmable(deps.db, change, at);
  const settled = isRefusal(policy) ? policy : await settle(deps, change, policy.quoteId, call);
  if (isRefusal(settled)) return refuse(deps.db, change, settled, at);
  return settled;
}

/**
 * Whether the request's Idempotency-Key names this change's current attempt (an earlier request
 * with the key held it or continued it), so the retry answers from it. Not when it must run: the
 * gateway failed the charge (the contract says to retry afresh), a continuation whose challenge
 * still waits (it continues again; the gateway replays its answer), or an attempt since superseded.
 */
function isOwnAttempt(change: PolicyChange, call: ConfirmCall): boolean {
  const subject = call.idempotencyKey?.subject;
  const named = subject === undefined ? undefined : changeOfSubject(subject);
  if (named?.id !== change.id || named.attempt !== change.attempt || isRetryableEnd(change)) return false;
  return call.threeDS?.threeDSRequest === undefined || !isWaiting(changeMoney, change);
}

/** The policy held and the money moved: a charge to the card sent now, a refund to the policy's own payments, or nothing. */
async function settle(
  deps: ChangeDeps,
  change: PolicyChange,
  quoteId: string,
  call: ConfirmCall,
): Promise<ConfirmResult | Refusal> {
  const key = call.idempotencyKey;
  if (change.amountMinor > 0) {
    // An on-account policy's charge goes to the partner's account: no card, and a card sent is refused.
    const onAccount = change.paymentMethod === 'ON_ACCOUNT';
    if (onAccount && call.cardToken !== undefined) throw new CardTokenNotAccepted();
    const cardToken = onAccount ? null : call.cardToken?.trim();
    if (cardToken === '' || cardToken === undefined)
      return {
        change,
        notifications: [
          problem(
            'FIELD_REQUIRED',
            'cardToken.token is required: the customer pays for this change.',
            'cardToken.token',
          ),
        ],
      };
    const held = await holdPolicy(
      deps,
      change,
      'STARTED',
      {
        cardToken,
        paymentId: null,
        paymentResult: null,
        declineReason: null,
        threeDSStatus: null,
        challenge: null,
        challengeExpiresAt: null,
      },
      key,
    );
    if (isRefusal(held)) return held;
    const brand = (await deps.catalogue.snapshot()).brands.get(call.brandCode);
    const checkout = checkoutOf(brand?.brand.name ?? call.brandCode, call.returnUrl);
    return answer(await authorise(changeMoney, deps, held, checkout));
  }
  if (change.amountMinor < 0) {
    const held = await holdRefund(deps, change, quoteId, key);
    return isRefusal(held) ? held : answer(await refundChange(deps, held));
  }
  const settled = await settleWithoutMoney(deps, change, key);
  return isRefusal(settled) ? settled : answer(settled);
}

/**
 * Whether the preview may be confirmed now: still a PREVIEW (not one being confirmed, nor ended),
 * unexpired, its policy still active at the sequence number it was priced against, and (an
 * amendment) not referred to an underwriter or declined by one.
 */
async function confirmable(db: Executor, change: PolicyChange, at: string): Promise<{ quoteId: string } | Refusal> {
  if (change.state === 'STALE') return { refused: 'stale', sequenceNumber: change.baseSequenceNumber + 1 };
  if (change.state !== 'PREVIEW')
    return {
      refused: ['STARTED', 'CHALLENGE_PENDING', 'REFUNDING'].includes(change.state) ? 'in-progress' : 'confirmed',
    };
  if (change.expiresAt < at) return { refused: 'expired' };
  const policy = await policyPosition(db, change.policyHeaderId);
  if (!policy) return { refused: 'policy-gone' };
  if (!policy.active) return { refused: 'cancelled' };
  if (policy.sequenceNumber !== change.baseSequenceNumber)
    return { refused: 'stale', sequenceNumber: policy.sequenceNumber };
  // A referred amendment waits for its underwriter: refused before anything is held or charged.
  const referred = change.kind === 'AMENDMENT' ? await referralRefusal(db, change.id) : undefined;
  return referred ?? policy;
}

/** Answers a refusal with its error; a preview the policy moved past is marked STALE first. */
async function refuse(db: Executor, change: PolicyChange, refusal: Refusal, at: string): Promise<never> {
  if (refusal.refused === 'stale' && change.state === 'PREVIEW')
    await moveChange(db, change, ['PREVIEW'], 'STALE', {}, at);
  throw refusalError(change, refusal);
}

/** The follow-up call after a 3-D Secure challenge: continues the waiting charge. */
async function continueWaiting(deps: ChangeDeps, change: PolicyChange, call: ConfirmCall): Promise<ConfirmResult> {
  if (!isWaiting(changeMoney, change)) {
    if (change.state === 'STARTED') throw new PolicyChangeInProgress(change.policyNumber);
    const property = 'threeDSRequestInfo.threeDSRequest';
    return answer(change, [
      problem('THREEDS_NO_PENDING_CHALLENGE', 'No 3-D Secure challenge of this change is waiting.', property),
    ]);
  }
  const continued = await continueChallenge(changeMoney, deps, change, call.threeDS ?? {}, call.idempotencyKey);
  return 'refused' in continued ? answer(change, continued.refused) : answer(continued.moved);
}

/** A change and the Notifications that explain a payment that did not go through. */
function answer(change: PolicyChange, extra: Notification[] = []): ConfirmResult {
  return { change, notifications: [...extra, ...outcomeNotifications(change)] };
}
