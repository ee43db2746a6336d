import type { Db, Tx } from '../db/database.js';
import { changeDocumentsMessage } from '../documents/messages.js';
import { changeCapturedEvent, changeRefundedEvent, changeReferences, policyChangedEvent } from '../events/data.js';
import { policyReferencesOf, recordEvent } from '../events/repository.js';
import { enqueue } from '../outbox/repository.js';
import { writePolicyTransaction } from '../policies/repository-transactions.js';
import type { PolicyTransactionRequest } from '../policies/transaction-request.js';
import type { ChangeState, PolicyChange } from './model.js';
import { moveChange, type ChangePatch } from './repository.js';

/**
 * The one commit of a change that writes two areas' tables, all or nothing: the change moves on
 * (compare and set on its state) and the policy gets its new transaction (compare and set on the
 * sequence number the change was priced against). A plain transaction on both engines: changes
 * are rare beside purchases, a BEGIN/COMMIT round trip is cheap here.
 */

/** The transaction a change writes, from what its preview fixed. */
export function transactionOf(change: PolicyChange, at: string, paymentReference?: string): PolicyTransactionRequest {
  return {
    policyHeaderId: change.policyHeaderId,
    policyNumber: change.policyNumber,
    baseSequenceNumber: change.baseSequenceNumber,
    actionType: change.kind === 'AMENDMENT' ? 'Amendment' : 'Cancellation',
    version: change.transaction.version,
    amounts: change.transaction.amounts,
    planId: change.transaction.planId,
    ...(paymentReference !== undefined ? { paymentReference } : {}),
    createdByUserId: change.userId,
    at,
  };
}

/** Rolls the transaction back when the policy is no longer at the change's base. */
class PolicyMoved extends Error {}

/** Applied (the moved change), or why nothing was written. */
export type ApplyOutcome = PolicyChange | 'overtaken' | 'stale';

export async function applyChange(
  db: Db,
  change: PolicyChange,
  step: {
    from: readonly ChangeState[];
    to: ChangeState;
    patch: ChangePatch;
    at: string;
    paymentReference?: string;
    /** Passed through first, in the same transaction: a change that moves no money still takes the policy's one hold. */
    via?: ChangeState;
  },
): Promise<ApplyOutcome> {
  try {
    return await db.transaction().execute(async (tx) => {
      const sequenceNumber = change.baseSequenceNumber + 1;
      const held = step.via ? await moveChange(tx, change, step.from, step.via, {}, step.at) : change;
      if (!held) return 'overtaken' as const;
      const from = step.via ? [step.via] : step.from;
      const moved = await moveChange(tx, held, from, step.to, { ...step.patch, sequenceNumber }, step.at);
      if (!moved) return 'overtaken' as const;
      const written = await writePolicyTransaction(tx, transactionOf(change, step.at, step.paymentReference));
      if (written === undefined) throw new PolicyMoved();
      // The new transaction's documents e-mail, committed with it (outbox: sent by the worker).
      await enqueue(tx, changeDocumentsMessage(change.policyNumber, sequenceNumber, step.at));
      await recordChangeEvents(tx, moved, step.at);
      return moved;
    });
  } catch (error) {
    if (error instanceof PolicyMoved) return 'stale';
    throw error;
  }
}

/**
 * The partner's events of an applied change, in its commit: the policy's new transaction, then a
 * refund that settled with it (a charge is captured later: `settleCapture`).
 */
async function recordChangeEvents(tx: Tx, change: PolicyChange, at: string): Promise<void> {
  const references = changeReferences(change, await policyReferencesOf(tx, change.policyNumber));
  await recordEvent(tx, { ...policyChangedEvent(change, references), at });
  if (change.amountMinor < 0 && change.state === 'SETTLED')
    await recordEvent(tx, { ...changeRefundedEvent(change, references), at });
}

/** APPLIED → SETTLED once the charge is captured, with its `payment.captured` event; undefined when overtaken. */
export async function settleCapture(db: Db, change: PolicyChange, at: string): Promise<PolicyChange | undefined> {
  return db.transaction().execute(async (tx) => {
    const moved = await moveChange(tx, change, ['APPLIED'], 'SETTLED', {}, at);
    if (!moved) return undefined;
    const references = changeReferences(moved, await policyReferencesOf(tx, moved.policyNumber));
    await recordEvent(tx, { ...changeCapturedEvent(moved, references), at });
    return moved;
  });
}
