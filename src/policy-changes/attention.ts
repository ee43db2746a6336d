import type { Executor } from '../db/database.js';
import { pageOf, type After, type KeysetPage } from '../kernel/keyset.js';
import { refundProgress } from './ledger.js';
import type { ChangeKind, PolicyChange, RefundLine } from './model.js';
import { findChangeById, moveChange } from './repository.js';
import { changesNeedingAttention, countChangesNeedingAttention } from './repository-payments.js';

/**
 * Changes left in ATTENTION (a refund that ended part-way, a capture refused): what an operator
 * reads before settling the money by hand, and the move to RESOLVED once settled. The CLI
 * (`policy-changes attention` / `resolve`) and the console's work queue call these same functions.
 */
export interface AttentionItem {
  readonly id: string;
  readonly kind: ChangeKind;
  readonly policyNumber: string;
  readonly brandCode: string;
  readonly partnerId: number;
  /** The change's total, signed (minor units): + charged, − refunded. */
  readonly amountMinor: number;
  readonly currency: string;
  /** What was refunded, and to which payments. */
  readonly refundedMinor: number;
  readonly refundedTo: readonly RefundLine[];
  /** What is still owed to the customer (≥ 0). */
  readonly outstandingMinor: number;
  /** The sequence number of the transaction it wrote, if it wrote one. */
  readonly bookedSequence?: number;
  /** Why it stopped (the gateway's refusal or REFUND_GATEWAY_UNAVAILABLE …). */
  readonly reason?: string;
  /** Since when it waits for an operator. */
  readonly since: string;
}

export function attentionItemOf(change: PolicyChange): AttentionItem {
  const { paid, refundedMinor, outstandingMinor } = refundProgress(change);
  return {
    id: change.id,
    kind: change.kind,
    policyNumber: change.policyNumber,
    brandCode: change.brandCode,
    partnerId: change.partnerId,
    amountMinor: change.amountMinor,
    currency: change.currency,
    refundedMinor,
    refundedTo: paid,
    outstandingMinor,
    ...(change.sequenceNumber === undefined ? {} : { bookedSequence: change.sequenceNumber }),
    ...(change.declineReason === undefined ? {} : { reason: change.declineReason }),
    since: change.updatedAt,
  };
}

/** A page of the changes in ATTENTION, longest waiting first. */
export async function attentionQueue(
  db: Executor,
  page: { readonly limit: number; readonly after?: After },
): Promise<KeysetPage<AttentionItem>> {
  const changes = await changesNeedingAttention(db, { ...page, limit: page.limit + 1 });
  return pageOf(changes.map(attentionItemOf), page.limit, (item) => ({ at: item.since, id: item.id }));
}

export const countAttention = (db: Executor): Promise<number> => countChangesNeedingAttention(db);

/** A change an operator resolved: as it stood in the queue, and when it was resolved. */
export interface ResolvedChange {
  readonly before: AttentionItem;
  readonly resolvedAt: string;
}

/**
 * Marks an ATTENTION change as settled outside the API: it becomes RESOLVED, which releases the
 * policy for the next change. Compare and set: undefined when the change is unknown or no longer in
 * ATTENTION (another operator resolved it first). Pass a transaction to record more in the same commit.
 */
export async function resolveAttention(db: Executor, id: string, at: string): Promise<ResolvedChange | undefined> {
  const change = await findChangeById(db, id);
  if (change?.state !== 'ATTENTION') return undefined;
  const moved = await moveChange(db, change, ['ATTENTION'], 'RESOLVED', {}, at);
  return moved && { before: attentionItemOf(change), resolvedAt: at };
}
