import type { Executor } from '../db/database.js';
import type { After } from '../kernel/keyset.js';
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

/**
 * Changes an operator must settle (a refund stopped part-way, a capture refused), longest waiting
 * first: by the time they stopped (`updated_at`, which nothing moves while in ATTENTION), then id;
 * a page of `limit` after `after` (the `policy_change_state_idx` range).
 */
export async function changesNeedingAttention(
  db: Executor,
  page: { readonly limit: number; readonly after?: After },
): Promise<PolicyChange[]> {
  const { after } = page;
  let query = db.selectFrom('policy_change').selectAll().where('state', '=', 'ATTENTION');
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('updated_at', '>', after.at),
        eb.and([eb('updated_at', '=', after.at), eb('public_id', '>', after.id)]),
      ]),
    );
  const rows = await query.orderBy('updated_at').orderBy('public_id').limit(page.limit).execute();
  return rows.map(changeOfRow);
}

/** How many changes are in ATTENTION. */
export async function countChangesNeedingAttention(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('policy_change')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('state', '=', 'ATTENTION')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
