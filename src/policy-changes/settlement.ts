import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { paymentResultOf, type AuthorisationOutcome, type PaymentGateway } from '../payments/gateway.js';
import { policyPosition } from '../policies/repository-transactions.js';
import { applyChange, settleCapture } from './commits.js';
import { ChangePreviewStale, PolicyChangeInProgress } from './errors.js';
import { changeGatewayKey, refundGatewayKey, type ChangeState, type PolicyChange, type RefundLine } from './model.js';
import { findChangeById, isPolicyHeld, moveChange, type ChangePatch } from './repository.js';

/**
 * The money steps of a confirmed change, shared by the request and by recovery (model.ts has the
 * states). Every step is a compare and set on the change's state and every gateway call carries a
 * key derived from the change, so retries from any process converge on one charge or one refund
 * per line and one policy transaction.
 */
export type ChangeCrashPoint = 'hold' | 'authorise' | 'apply' | 'refund';

export interface ChangeFlowDeps {
  readonly db: Db;
  readonly gateway: PaymentGateway;
  readonly clock: Clock;
  readonly log?: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  /** Test hook (never in production): kill the process right after this step. */
  readonly crashAfter?: ChangeCrashPoint;
}

const now = (deps: ChangeFlowDeps) => deps.clock().toISOString();

function crashPoint(deps: ChangeFlowDeps, step: ChangeCrashPoint): void {
  // SIGKILL: no cleanup, no flushing, exactly like a machine dying (test hook, see config).
  if (deps.crashAfter === step) process.kill(process.pid, 'SIGKILL');
}

async function current(deps: ChangeFlowDeps, change: PolicyChange): Promise<PolicyChange> {
  const found = await findChangeById(deps.db, change.id);
  if (!found) throw new Error(`policy change ${change.id} vanished`);
  return found;
}

async function move(
  deps: ChangeFlowDeps,
  change: PolicyChange,
  from: readonly ChangeState[],
  to: ChangeState,
  patch: ChangePatch = {},
): Promise<PolicyChange> {
  return (await moveChange(deps.db, change, from, to, patch, now(deps))) ?? current(deps, change);
}

/** Rolls a hold back: the policy moved on since the preview. */
class PolicyMovedOn extends Error {
  constructor(readonly sequenceNumber: number) {
    super('policy moved on');
  }
}

/**
 * PREVIEW → a state that holds the policy (one change at a time), and only while the policy is
 * still where the preview left it: the hold and that check are one transaction, so a change that
 * was written meanwhile (e.g. one that moved no money) is seen, before any money moves. Throws
 * PolicyChangeInProgress (another change holds it) or ChangePreviewStale (it moved on: STALE).
 */
export async function holdPolicy(
  deps: ChangeFlowDeps,
  change: PolicyChange,
  to: 'STARTED' | 'REFUNDING',
  patch: ChangePatch,
): Promise<PolicyChange | undefined> {
  const at = now(deps);
  let held: PolicyChange | undefined;
  try {
    held = await deps.db.transaction().execute(async (tx) => {
      const moved = await moveChange(tx, change, ['PREVIEW'], to, { attempt: change.attempt + 1, ...patch }, at);
      if (!moved) return undefined;
      const policy = await policyPosition(tx, change.policyHeaderId);
      if (!policy?.active || policy.sequenceNumber !== change.baseSequenceNumber)
        throw new PolicyMovedOn(policy?.sequenceNumber ?? change.baseSequenceNumber);
      return moved;
    });
  } catch (error) {
    if (isPolicyHeld(error)) throw new PolicyChangeInProgress(change.policyNumber);
    if (!(error instanceof PolicyMovedOn)) throw error;
    await moveChange(deps.db, change, ['PREVIEW'], 'STALE', {}, at);
    throw new ChangePreviewStale(change.kind, error.sequenceNumber);
  }
  if (held) crashPoint(deps, 'hold');
  return held;
}

/** STARTED: asks the gateway for the charge (the same key replays its first answer). */
export async function authoriseCharge(deps: ChangeFlowDeps, change: PolicyChange): Promise<PolicyChange> {
  const outcome = await deps.gateway.authorise({
    idempotencyKey: changeGatewayKey(change, 'authorise'),
    amount: { amountMinor: change.amountMinor, currency: change.currency },
    cardToken: change.cardToken ?? '',
    reference: change.id,
  });
  return applyAuthorisation(deps, change, outcome);
}

/** Records what the gateway answered to authorise or to a 3-D Secure continuation, and goes on. */
export async function applyAuthorisation(
  deps: ChangeFlowDeps,
  change: PolicyChange,
  outcome: AuthorisationOutcome,
): Promise<PolicyChange> {
  const from: ChangeState[] = ['STARTED', 'CHALLENGE_PENDING'];
  const paymentResult = paymentResultOf(outcome);
  switch (outcome.outcome) {
    case 'approved': {
      crashPoint(deps, 'authorise');
      const patch = {
        paymentId: outcome.paymentId,
        paymentResult,
        threeDSStatus: outcome.threeDSStatus,
        challenge: null,
      };
      const applied = await applyChange(deps.db, change, {
        from,
        to: 'APPLIED',
        patch,
        at: now(deps),
        paymentReference: outcome.paymentId,
      });
      if (applied === 'overtaken') {
        const latest = await current(deps, change);
        // Another step took the change elsewhere (e.g. recovery released an expired challenge): this hold is not ours to keep.
        if (latest.paymentId !== outcome.paymentId || !['APPLIED', 'SETTLED'].includes(latest.state))
          await deps.gateway.void({ idempotencyKey: changeGatewayKey(change, 'void'), paymentId: outcome.paymentId });
        return advanceChange(deps, latest);
      }
      if (applied === 'stale') return voidCharge(deps, change, outcome.paymentId);
      crashPoint(deps, 'apply');
      return captureCharge(deps, applied);
    }
    case 'challenge_required': {
      const { challengeId: _id, expiresAt, ...challenge } = outcome.challenge;
      return move(deps, change, from, 'CHALLENGE_PENDING', {
        paymentId: outcome.paymentId,
        paymentResult,
        threeDSStatus: 'CHALLENGE_REQUIRED',
        challenge,
        challengeExpiresAt: expiresAt,
      });
    }
    case 'declined':
    case 'insufficient_funds':
      // Nothing was charged: the preview stands and may be confirmed again with another card.
      return move(deps, change, from, 'PREVIEW', {
        paymentId: outcome.paymentId,
        paymentResult,
        declineReason: outcome.outcome === 'declined' ? outcome.reason : 'INSUFFICIENT_FUNDS',
        threeDSStatus: outcome.threeDSStatus,
        challenge: null,
      });
    case 'gateway_error':
      if (change.state === 'CHALLENGE_PENDING') return change;
      return move(deps, change, from, 'PREVIEW', { paymentResult, declineReason: outcome.code });
  }
}

/** An approved charge whose transaction can no longer be written: the hold is released. */
async function voidCharge(deps: ChangeFlowDeps, change: PolicyChange, paymentId: string): Promise<PolicyChange> {
  deps.log?.error({ changeId: change.id }, 'policy change: the policy moved on; voiding the authorisation');
  const outcome = await deps.gateway.void({ idempotencyKey: changeGatewayKey(change, 'void'), paymentId });
  if (outcome.outcome === 'gateway_error') return change; // recovery asks again
  return move(deps, change, ['STARTED', 'CHALLENGE_PENDING'], 'VOIDED', { paymentId });
}

/** APPLIED → SETTLED. A failed capture leaves APPLIED for recovery (the transaction stands; nothing is charged twice). */
export async function captureCharge(deps: ChangeFlowDeps, change: PolicyChange): Promise<PolicyChange> {
  if (change.paymentId === undefined) return change;
  const outcome = await deps.gateway.capture({
    idempotencyKey: changeGatewayKey(change, 'capture'),
    paymentId: change.paymentId,
    amount: { amountMinor: change.amountMinor, currency: change.currency },
  });
  if (outcome.outcome === 'captured') return (await settleCapture(deps.db, change, now(deps))) ?? current(deps, change);
  // The gateway refuses to capture (the hold is gone): the transaction stands unpaid, an operator settles it.
  if (outcome.outcome === 'rejected')
    return move(deps, change, ['APPLIED'], 'ATTENTION', { declineReason: outcome.code });
  deps.log?.error({ changeId: change.id, outcome: outcome.outcome }, 'policy change: capture did not succeed');
  return change;
}

/**
 * REFUNDING: each line back to its payment (keyed per line: a retry replays), then the transaction.
 * A refusal before anything was refunded ends the change (REFUND_DECLINED, nothing changed); after
 * a part of it, ATTENTION (the lines that went through kept). An outage leaves it for recovery.
 */
export async function refundChange(deps: ChangeFlowDeps, change: PolicyChange): Promise<PolicyChange> {
  const done: RefundLine[] = [];
  for (const line of change.refunds ?? []) {
    const outcome = await deps.gateway.refund({
      idempotencyKey: refundGatewayKey(change, line),
      paymentId: line.paymentId,
      amount: { amountMinor: line.amountMinor, currency: change.currency },
    });
    // An outage that may pass leaves the change for recovery; any other refusal is final.
    if (outcome.outcome === 'gateway_error' && outcome.retryable) return change;
    if (outcome.outcome === 'gateway_error' || outcome.outcome === 'rejected') {
      const refunds = (change.refunds ?? []).map((l) => (done.includes(l) ? { ...l, refunded: true } : l));
      const to = done.length === 0 ? 'REFUND_DECLINED' : 'ATTENTION';
      deps.log?.error({ changeId: change.id, code: outcome.code, to }, 'policy change: a refund was refused');
      return move(deps, change, ['REFUNDING'], to, { declineReason: outcome.code, refunds });
    }
    done.push(line);
  }
  crashPoint(deps, 'refund');
  const applied = await applyChange(deps.db, change, {
    from: ['REFUNDING'],
    to: 'SETTLED',
    patch: { paymentResult: 'REFUNDED' },
    at: now(deps),
    ...(change.refunds?.[0] ? { paymentReference: change.refunds[0].paymentId } : {}),
  });
  if (applied === 'overtaken') return current(deps, change);
  if (applied === 'stale') return move(deps, change, ['REFUNDING'], 'ATTENTION', { declineReason: 'POLICY_MOVED' });
  return applied;
}

/**
 * A change that moves no money: PREVIEW → (the policy's hold) → SETTLED with its transaction, one
 * commit; the hold makes it wait its turn behind a change being confirmed (PolicyChangeInProgress).
 */
export async function settleWithoutMoney(deps: ChangeFlowDeps, change: PolicyChange): Promise<PolicyChange | 'stale'> {
  let applied;
  try {
    applied = await applyChange(deps.db, change, {
      from: ['PREVIEW'],
      via: 'STARTED',
      to: 'SETTLED',
      patch: { attempt: change.attempt + 1 },
      at: now(deps),
    });
  } catch (error) {
    if (isPolicyHeld(error)) throw new PolicyChangeInProgress(change.policyNumber);
    throw error;
  }
  if (applied === 'overtaken') return current(deps, change);
  return applied;
}

/** Takes a change as far as it can go from its state (after losing a race, on a retry, in recovery). */
export async function advanceChange(deps: ChangeFlowDeps, change: PolicyChange): Promise<PolicyChange> {
  switch (change.state) {
    case 'STARTED':
      return authoriseCharge(deps, change);
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
      if (!released) return current(deps, change);
      await deps.gateway.void({ idempotencyKey: changeGatewayKey(change, 'void'), paymentId: change.paymentId });
      return released;
    }
    case 'APPLIED':
      return captureCharge(deps, change);
    case 'REFUNDING':
      return refundChange(deps, change);
    default:
      return change;
  }
}
