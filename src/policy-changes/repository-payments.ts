import type { Executor } from '../db/database.js';
import type { PolicyChange } from './model.js';
import { changeOfRow } from './repository.js';

/**
 * Statements over the `policy_change` table (its owner is this folder's repository.ts) that find
 * changes by their money: the gateway's payments (what a gateway's webhook names), and the
 * changes whose money an operator must settle.
 */

/** The newest change whose charge is the gateway's payment `paymentId`. */
export async function findChangeOfPayment(db: Executor, paymentId: string): Promise<PolicyChange | undefined> {
  const row = await db
    .selectFrom('policy_change')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row && changeOfRow(row);
}

/** The changes of a policy that refund (or refunded) money, newest first. */
export async function refundingChangesOf(db: Executor, policyNumber: string): Promise<PolicyChange[]> {
  const rows = await db
    .selectFrom('policy_change')
    .selectAll()
    .where('policy_number', '=', policyNumber)
    .where('refunds_json', 'is not', null)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(changeOfRow);
}

/** Changes an operator must settle (a refund stopped part-way, a capture refused), oldest first. */
export async function changesNeedingAttention(db: Executor): Promise<PolicyChange[]> {
  const rows = await db
    .selectFrom('policy_change')
    .selectAll()
    .where('state', '=', 'ATTENTION')
    .orderBy('id')
    .execute();
  return rows.map(changeOfRow);
}
