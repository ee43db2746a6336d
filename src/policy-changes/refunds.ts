import type { MoneyDeps } from '../payments/flow/area.js';
import { crashPoint, now, refundLines } from '../payments/flow/flow.js';
import { applyChange } from './commits.js';
import { refundProgress } from './ledger.js';
import { refundGatewayKey, type ChangeState, type PolicyChange, type RefundLine } from './model.js';
import { portion } from './parts.js';
import { findChangeById, moveChange, type ChangePatch } from './repository.js';

/**
 * A change's refund (REFUNDING, model.ts): each line back to its payment, keyed per line (a retry
 * replays), each line recorded as paid before the next is asked, then one commit writes the
 * transaction (SETTLED). Gateway outages leave the change for recovery until its `refundRetryUntil`;
 * after it, or on a final refusal, the refund ends: nothing refunded → REFUND_DECLINED (nothing
 * changed); a part refunded → that part is booked as the change's transaction, with its events,
 * and the change waits in ATTENTION for an operator to pay the rest (docs/api-contract.md).
 */

/** The decline reason of a refund whose gateway outages outlasted its bound. */
export const REFUND_GATEWAY_UNAVAILABLE = 'REFUND_GATEWAY_UNAVAILABLE';

async function latest(deps: MoneyDeps, id: string): Promise<PolicyChange> {
  const found = await findChangeById(deps.db, id);
  if (!found) throw new Error(`policy change ${id} vanished`);
  return found;
}

async function end(deps: MoneyDeps, change: PolicyChange, to: ChangeState, patch: ChangePatch) {
  return (await moveChange(deps.db, change, ['REFUNDING'], to, patch, now(deps))) ?? latest(deps, change.id);
}

/**
 * One more line recorded as paid: a compare and set on the change's state and last touch, so the
 * marks of another process refunding it too (they only ever grow) are kept; undefined once the
 * change left REFUNDING.
 */
async function recordPaid(deps: MoneyDeps, change: PolicyChange, line: RefundLine): Promise<PolicyChange | undefined> {
  let seen = change;
  for (let tries = 0; tries < 5; tries += 1) {
    const refunds = (seen.refunds ?? []).map((l) => (l.paymentId === line.paymentId ? { ...l, refunded: true } : l));
    const moved = await moveChange(deps.db, seen, ['REFUNDING'], 'REFUNDING', { refunds }, now(deps), seen.updatedAt);
    if (moved) return moved;
    seen = await latest(deps, change.id);
    if (seen.state !== 'REFUNDING') return undefined;
  }
  return undefined;
}

export async function refundChange(deps: MoneyDeps, change: PolicyChange): Promise<PolicyChange> {
  let recorded = change;
  const refunded = await refundLines(deps, change, change.refunds ?? [], change.currency, {
    keyOf: (line) => refundGatewayKey(change, line),
    isPaid: (line) => line.refunded === true,
    record: async (line) => {
      const moved = await recordPaid(deps, recorded, line);
      if (moved) recorded = moved;
      return moved !== undefined;
    },
  });
  switch (refunded.outcome) {
    case 'overtaken':
      return latest(deps, change.id);
    case 'outage':
      // An outage that may pass leaves the change for recovery (same keys: replayed) until its bound.
      if (now(deps) < (recorded.refundRetryUntil ?? recorded.createdAt)) return recorded;
      return endShort(deps, recorded, REFUND_GATEWAY_UNAVAILABLE, refunded.code);
    case 'refused':
      return endShort(deps, recorded, refunded.code, refunded.code);
    case 'refunded':
      return settleRefund(deps, recorded);
  }
}

/** Every line paid: the transaction, with its events, one commit (SETTLED). */
async function settleRefund(deps: MoneyDeps, change: PolicyChange): Promise<PolicyChange> {
  crashPoint(deps, 'refund');
  const applied = await applyChange(deps.db, change, {
    from: ['REFUNDING'],
    to: 'SETTLED',
    patch: { paymentResult: 'REFUNDED' },
    at: now(deps),
    ...(change.refunds?.[0] ? { paymentReference: change.refunds[0].paymentId } : {}),
  });
  if (applied === 'overtaken') return latest(deps, change.id);
  if (applied === 'stale') return end(deps, change, 'ATTENTION', { declineReason: 'POLICY_MOVED' });
  crashPoint(deps, 'settle');
  return applied;
}

/**
 * The refund ends before all of it went through. Nothing refunded: REFUND_DECLINED, nothing
 * changed, the policy free again. A part refunded: the change's transaction is written for that
 * part only (every part of it scaled to what was refunded, parts.ts `portion`), with its
 * `policy.*` and `payment.refunded` events, one commit, and the change waits in ATTENTION (the
 * policy held) until an operator pays the rest and resolves it.
 */
async function endShort(deps: MoneyDeps, change: PolicyChange, reason: string, gatewayCode: string) {
  const { paid, refundedMinor, outstandingMinor } = refundProgress(change);
  deps.log?.error(
    { changeId: change.id, reason, gatewayCode, refundedMinor, outstandingMinor },
    'policy change: a refund ended before all of it went through',
  );
  const first = paid[0];
  if (!first) return end(deps, change, 'REFUND_DECLINED', { declineReason: reason });
  const booked: PolicyChange = {
    ...change,
    amountMinor: -refundedMinor,
    transaction: { ...change.transaction, amounts: portion(change.transaction.amounts, -refundedMinor) },
  };
  const applied = await applyChange(deps.db, booked, {
    from: ['REFUNDING'],
    to: 'ATTENTION',
    patch: { declineReason: reason },
    at: now(deps),
    paymentReference: first.paymentId,
  });
  if (applied === 'overtaken') return latest(deps, change.id);
  if (applied === 'stale') return end(deps, change, 'ATTENTION', { declineReason: 'POLICY_MOVED' });
  crashPoint(deps, 'settle');
  return applied;
}
