import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { PurchaseState } from './model.js';

/**
 * Recovery's statements over the `purchase` table (its owner is this folder's repository.ts): the
 * work list of open purchases and the lease one process takes on each, so several processes can
 * sweep one database.
 */

/** An open purchase as recovery lists it: enough to lease it; the rest is read once leased, one at a time. */
export interface PurchaseLease {
  readonly id: string;
  readonly state: PurchaseState;
  readonly updatedAt: string;
  readonly challengeExpiresAt?: string;
}

/**
 * Purchases in `states` (open ones) last changed before `before` (recovery's work list), oldest
 * first, without their stored JSON (one bad record must not stop the listing). The states are
 * literals in the SQL text, so the partial index over open purchases (`purchase_open_idx`) is
 * provably usable for this statement.
 */
export async function listLeases(
  db: Executor,
  states: readonly PurchaseState[],
  before: string,
  limit = 500,
): Promise<PurchaseLease[]> {
  const rows = await db
    .selectFrom('purchase')
    .select(['public_id', 'state', 'updated_at', 'challenge_expires_at'])
    .where(
      'state',
      'in',
      states.map((state) => sql.lit(state)),
    )
    .where('updated_at', '<', before)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.public_id,
    state: row.state as PurchaseState,
    updatedAt: row.updated_at,
    ...(row.challenge_expires_at !== null ? { challengeExpiresAt: row.challenge_expires_at } : {}),
  }));
}

/**
 * Takes a listed purchase for one recovering process: a compare and set on its state and
 * `updated_at`, which it moves to `at`, so of several processes (every server sweeps) exactly one
 * wins and the others, within the grace period again, skip it.
 */
export async function leasePurchase(db: Executor, lease: PurchaseLease, at: string): Promise<boolean> {
  const result = await db
    .updateTable('purchase')
    .set({ updated_at: at })
    .where('public_id', '=', lease.id)
    .where('state', '=', lease.state)
    .where('updated_at', '=', lease.updatedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
