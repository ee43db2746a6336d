import { PlanEnded, runPlan } from '../db/commit-plan.js';
import type { Db, Executor } from '../db/database.js';
import { changeDocumentsMessage } from '../documents/messages.js';
import { changeCapturedEvent, changeRefundedEvent, changeReferences, policyChangedEvent } from '../events/data.js';
import { policyReferencesOf, recordEvent, recordEventSteps } from '../events/repository.js';
import { enqueueStep } from '../db/outbox/repository.js';
import { bindKeyStep, type KeyBinding } from '../http/idempotency/repository.js';
import { lockPolicyAtStep, policyTransactionSteps } from '../policies/repository-transactions.js';
import type { PolicyTransactionRequest } from '../policies/transaction-request.js';
import { refundProgress } from './ledger.js';
import type { ChangeState, PolicyChange } from './model.js';
import { changeOfRow, lockChangeStep, moveChange, moveChangeStep, type ChangePatch } from './repository.js';

/**
 * The commits of a change that write several tables, all or nothing, each a commit plan of the
 * tables' owners' steps (db/commit-plan.ts): applying it (with its policy transaction, e-mail and
 * events; a refund's transaction books what went back: `change` may be the part refunded,
 * refunds.ts) and settling a captured charge (with its event).
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
    paymentMethod: change.paymentMethod,
    createdByUserId: change.userId,
    at,
  };
}

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
    /** The request's Idempotency-Key and the attempt it names, written in the same commit (a change that moves no money). */
    binding?: KeyBinding;
  },
): Promise<ApplyOutcome> {
  // A row is moved once per statement, and a policy's event counter bumped once: passing through
  // `via`, and a refund's event after the change's own, are statements of their own in one transaction.
  // A refund books what went back: all of it (SETTLED), or the part paid before it ended (ATTENTION).
  const refunded = change.amountMinor < 0 && (step.to === 'SETTLED' || step.to === 'ATTENTION');
  if (step.via === undefined && !refunded) return applyPlan(db, change, step);
  const via = step.via;
  try {
    return await db.transaction().execute(async (tx) => {
      const held = via === undefined ? change : await moveChange(tx, change, step.from, via, {}, step.at);
      if (!held) return 'overtaken' as const;
      const applied = await applyPlan(tx, held, via === undefined ? step : { ...step, from: [via] });
      // Nothing of the plan was written: neither is the hold.
      if (typeof applied === 'string') throw new PlanEnded(applied);
      if (refunded) {
        const references = changeReferences(applied, await policyReferencesOf(tx, applied.policyNumber));
        await recordEvent(tx, { ...changeRefundedEvent(applied, references, refundProgress(applied)), at: step.at });
      }
      return applied;
    });
  } catch (error) {
    if (error instanceof PlanEnded) return error.outcome as ApplyOutcome;
    throw error;
  }
}

/**
 * The change moves on (compare and set on its state) and the policy gets its new transaction
 * (compare and set on the sequence number the change was priced against), with the documents'
 * e-mail and the partner's events, one commit plan. PostgreSQL locks the change and the policy's
 * header first, so a closed gate writes nothing.
 */
async function applyPlan(
  db: Executor,
  change: PolicyChange,
  step: {
    from: readonly ChangeState[];
    to: ChangeState;
    patch: ChangePatch;
    at: string;
    paymentReference?: string;
    binding?: KeyBinding;
  },
): Promise<ApplyOutcome> {
  const sequenceNumber = change.baseSequenceNumber + 1;
  const request = transactionOf(change, step.at, step.paymentReference);
  const move = { change, from: step.from, to: step.to, patch: { ...step.patch, sequenceNumber }, at: step.at };
  const references = changeReferences(change, await policyReferencesOf(db, change.policyNumber));
  const applied = { ...change, state: step.to };
  const { ended, rows } = await runPlan(db, {
    name: 'apply-change',
    steps: [
      lockChangeStep('open_change', change.id, step.from, 'overtaken'),
      lockPolicyAtStep('open_policy', 'open_change', request, 'stale'),
      moveChangeStep('moved', 'open_policy', move, 'overtaken'),
      ...policyTransactionSteps('moved', request, 'stale'),
      // The new transaction's documents e-mail, committed with it (outbox: sent by the worker).
      enqueueStep('documents', 'policy_moved', changeDocumentsMessage(change.policyNumber, sequenceNumber, step.at)),
      // The partner's event of the policy's new transaction (a refund that settled with it: `applyChange`;
      // a charge is captured later: `settleCapture`).
      ...recordEventSteps('changed_event', 'policy_moved', { ...policyChangedEvent(applied, references), at: step.at }),
      ...(step.binding ? [bindKeyStep('key', 'policy_moved', step.binding)] : []),
    ],
    answer: { moved: 'row' },
  });
  if (ended !== undefined) return ended as 'overtaken' | 'stale';
  return rows.moved ? changeOfRow(rows.moved) : 'overtaken';
}

/** APPLIED → SETTLED once the charge is captured, with its `payment.captured` event; undefined when overtaken. */
export async function settleCapture(db: Db, change: PolicyChange, at: string): Promise<PolicyChange | undefined> {
  const references = changeReferences(change, await policyReferencesOf(db, change.policyNumber));
  const move = { change, from: ['APPLIED'] as const, to: 'SETTLED' as const, patch: {}, at };
  const { rows } = await runPlan(db, {
    name: 'settle-capture',
    steps: [
      moveChangeStep('moved', undefined, move, 'overtaken'),
      ...recordEventSteps('captured_event', 'moved', { ...changeCapturedEvent(change, references), at }),
    ],
    answer: { moved: 'row' },
  });
  return rows.moved ? changeOfRow(rows.moved) : undefined;
}
