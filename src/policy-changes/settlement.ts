import type { ChangeCrashPoint } from '../config/policy-changes.js';
import { authorise, capture, crashPoint, current, now, releaseHold } from '../payments/flow/flow.js';
import type { MoneyArea, MoneyDeps } from '../payments/flow/area.js';
import { bindKey } from '../http/idempotency/repository.js';
import type { HeldKey } from '../http/idempotency/service.js';
import { policyPosition } from '../policies/repository-transactions.js';
import { applyChange, settleCapture } from './commits.js';
import { findPurchaseOfQuote } from '../purchases/repository.js';
import type { Refusal } from './errors.js';
import { allocateRefund, paymentsOf } from './ledger.js';
import { changeGatewayKey, changeOfSubject, changeSubject, type ChangeState, type PolicyChange } from './model.js';
import { refundChange } from './refunds.js';
import { changesWithMoney, findChangeById, isPolicyHeld, moveChange, type ChangePatch } from './repository.js';

/**
 * A confirmed change in the money flow (payments/flow/flow.ts): its states (model.ts), its commits
 * and its answers, shared by the request and by recovery. Every step is a compare and set on the
 * change's state and every gateway call carries a key derived from the change, so retries from any
 * process converge on one charge or one refund per line and one policy transaction.
 */
export type { ChangeCrashPoint };

export type ChangeFlowDeps = MoneyDeps<ChangeCrashPoint>;

type ChangeArea = MoneyArea<ChangeState, PolicyChange, PolicyChange>;

/**
 * The approval and the policy transaction, one commit (APPLIED); the flow captures next. A policy
 * that moved on makes the approval unusable: the flow voids the hold.
 */
const applyApproved: ChangeArea['approved'] = async (db, change, approval, at) => {
  // A change has no state that keeps an approval: the gateway's answer is always in hand.
  if (!approval) throw new Error(`policy change ${change.id}: an approval to apply was not given`);
  const { from, patch } = approval;
  const applied = await applyChange(db, change, { from, to: 'APPLIED', patch, at, paymentReference: patch.paymentId });
  if (applied === 'overtaken') {
    const latest = await current(changeMoney, db, change.id);
    const ours = latest.paymentId === patch.paymentId && ['APPLIED', 'SETTLED'].includes(latest.state);
    return { overtaken: latest, releaseOurs: !ours };
  }
  if (applied === 'stale') return { unusable: change, paymentId: patch.paymentId, why: 'the policy moved on' };
  return { applied, answer: (captured) => captured };
};

export const changeMoney: ChangeArea = {
  name: 'policy change',
  challengeOf: 'change',
  logKey: 'changeId',
  key: changeGatewayKey,
  find: findChangeById,
  subjectOf: changeSubject,
  ofSubject: async (db, subject) => {
    const named = changeOfSubject(subject);
    return named === undefined ? undefined : findChangeById(db, named.id);
  },
  working: ['STARTED', 'APPLIED', 'REFUNDING'],
  authorising: ['STARTED', 'CHALLENGE_PENDING'],
  challengePending: 'CHALLENGE_PENDING',
  move: moveChange,
  approved: applyApproved,
  appliedCrashPoint: 'apply',
  voided: (db, change, paymentId, at) =>
    moveChange(db, change, ['STARTED', 'CHALLENGE_PENDING'], 'VOIDED', paymentId ? { paymentId } : {}, at),
  // Nothing was charged: the preview stands and may be confirmed again with another card.
  declined: (db, change, from, patch, at) => moveChange(db, change, from, 'PREVIEW', { ...patch, challenge: null }, at),
  failed: (db, change, from, patch, at) => moveChange(db, change, from, 'PREVIEW', patch, at),
  captured: settleCapture,
  // The hold is gone: the transaction stands unpaid, an operator settles it.
  captureRejected: (db, change, code, at) =>
    moveChange(db, change, ['APPLIED'], 'ATTENTION', { declineReason: code }, at),
  settled: (change) => change,
  advance: (deps, change) => advanceChange(deps, change),
};

/** Rolls a hold back: the policy moved on since the preview. */
class PolicyMovedOn extends Error {
  constructor(readonly sequenceNumber: number) {
    super('policy moved on');
  }
}

/**
 * PREVIEW → a state that holds the policy (one change at a time), and only while the policy is
 * still where the preview left it: the hold and that check are one transaction, so a change that
 * was written meanwhile (e.g. one that moved no money) is seen, before any money moves. The
 * request's Idempotency-Key names the attempt in the same transaction (a retry answers from it).
 * Refused when another change holds it, or when it moved on (the caller marks the preview STALE).
 */
export async function holdPolicy(
  deps: MoneyDeps,
  change: PolicyChange,
  to: 'STARTED' | 'REFUNDING',
  patch: ChangePatch,
  key?: HeldKey,
): Promise<PolicyChange | Refusal> {
  let held: PolicyChange | undefined;
  try {
    held = await deps.db.transaction().execute(async (tx) => {
      const moved = await moveChange(tx, change, ['PREVIEW'], to, { attempt: change.attempt + 1, ...patch }, now(deps));
      if (!moved) return undefined;
      const policy = await policyPosition(tx, change.policyHeaderId);
      if (!policy?.active || policy.sequenceNumber !== change.baseSequenceNumber)
        throw new PolicyMovedOn(policy?.sequenceNumber ?? change.baseSequenceNumber);
      if (key) await bindKey(tx, { keyId: key.id, subject: changeSubject(moved) });
      return moved;
    });
  } catch (error) {
    if (isPolicyHeld(error)) return { refused: 'in-progress' };
    if (error instanceof PolicyMovedOn) return { refused: 'stale', sequenceNumber: error.sequenceNumber };
    throw error;
  }
  if (!held) return { refused: 'in-progress' };
  crashPoint(deps, 'hold');
  return held;
}

/**
 * PREVIEW → REFUNDING, the refund allocated over the policy's payments (ledger.ts): the purchase
 * once captured and the charges of settled amendments, and retried through gateway outages until
 * `refundRetrySeconds` from now (refunds.ts). While a capture is still pending (recovery finishes
 * it) the refund waits for it.
 */
export async function holdRefund(
  deps: MoneyDeps & { readonly refundRetrySeconds: number },
  change: PolicyChange,
  quoteId: string,
  key?: HeldKey,
): Promise<PolicyChange | Refusal> {
  const purchase = await findPurchaseOfQuote(deps.db, quoteId, ['CAPTURED']);
  const payments = paymentsOf(
    purchase?.paymentId === undefined
      ? undefined
      : { paymentId: purchase.paymentId, amountMinor: purchase.amountMinor, captured: true },
    await changesWithMoney(deps.db, change.policyHeaderId),
  );
  const refunds = allocateRefund(payments, -change.amountMinor);
  if (!refunds) return { refused: 'in-progress' };
  const refundRetryUntil = new Date(deps.clock().getTime() + deps.refundRetrySeconds * 1000).toISOString();
  return holdPolicy(deps, change, 'REFUNDING', { refunds, refundRetryUntil }, key);
}

/**
 * A change that moves no money: PREVIEW → (the policy's hold) → SETTLED with its transaction, one
 * commit, which also names the attempt on the request's Idempotency-Key; the hold makes it wait
 * its turn behind a change being confirmed (PolicyChangeInProgress).
 */
export async function settleWithoutMoney(
  deps: MoneyDeps,
  change: PolicyChange,
  key?: HeldKey,
): Promise<PolicyChange | Refusal> {
  const attempt = change.attempt + 1;
  let applied;
  try {
    applied = await applyChange(deps.db, change, {
      from: ['PREVIEW'],
      via: 'STARTED',
      to: 'SETTLED',
      patch: { attempt },
      at: now(deps),
      ...(key ? { binding: { keyId: key.id, subject: changeSubject({ id: change.id, attempt }) } } : {}),
    });
  } catch (error) {
    if (isPolicyHeld(error)) return { refused: 'in-progress' };
    throw error;
  }
  if (applied === 'overtaken') return current(changeMoney, deps.db, change.id);
  if (applied === 'stale') return { refused: 'stale', sequenceNumber: change.baseSequenceNumber + 1 };
  crashPoint(deps, 'settle');
  return applied;
}

/** Takes a change as far as it can go from its state (after losing a race, on a retry, in recovery). */
export async function advanceChange(deps: MoneyDeps, change: PolicyChange): Promise<PolicyChange> {
  switch (change.state) {
    case 'STARTED':
      return authorise(changeMoney, deps, change);
    case 'CHALLENGE_PENDING': {
      const expired = change.challengeExpiresAt !== undefined && change.challengeExpiresAt < now(deps);
      if (!expired || change.paymentId === undefined) return change;
      // The cardholder never answered: the preview may be confirmed again. The state moves first,
      // so a late answer finds it gone (and releases its own approval), then the challenge is voided.
      const released = await moveChange(
        deps.db,
        change,
        ['CHALLENGE_PENDING'],
        'PREVIEW',
        {
          paymentResult: 'DECLINED',
          declineReason: 'THREEDS_CHALLENGE_EXPIRED',
          challenge: null,
        },
        now(deps),
      );
      if (!released) return current(changeMoney, deps.db, change.id);
      await releaseHold(changeMoney, deps, change, change.paymentId);
      return released;
    }
    case 'APPLIED':
      return capture(changeMoney, deps, change);
    case 'REFUNDING':
      return refundChange(deps, change);
    default:
      return change;
  }
}
