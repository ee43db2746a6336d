import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { runPlannedPerRun } from '../../db/per-run-plan.js';
import type { IdempotencyKeyTable } from './tables.js';

export type IdempotencyKeyRow = Selectable<IdempotencyKeyTable>;
export type NewIdempotencyKeyRow = Insertable<IdempotencyKeyTable>;

/** Inserts a fresh claim and returns its id; `undefined` when the (scope, key) pair already has a record. */
export async function insertClaim(db: Executor, row: NewIdempotencyKeyRow): Promise<number | undefined> {
  const inserted = await db
    .insertInto('idempotency_key')
    .values(row)
    .onConflict((oc) => oc.columns(['scope', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

export async function findKey(db: Executor, scope: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_key')
    .selectAll()
    .where('scope', '=', scope)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/**
 * Replaces an expired record or an abandoned claim with a new claim, only if nobody else did
 * first (compare-and-set on the previous lock token).
 */
export async function takeOver(
  db: Executor,
  id: number,
  previousLockToken: string,
  claim: Pick<IdempotencyKeyRow, 'fingerprint' | 'lock_token' | 'locked_at' | 'created_at' | 'expires_at'>,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_key')
    .set({ ...claim, state: 'in_flight', response_status: null, response_content_type: null, response_body: null })
    .where('id', '=', id)
    .where('lock_token', '=', previousLockToken)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function storeResponse(
  db: Executor,
  id: number,
  lockToken: string,
  response: { status: number; contentType: string | null; body: string },
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_key')
    .set({
      state: 'completed',
      response_status: response.status,
      response_content_type: response.contentType,
      response_body: response.body,
    })
    .where('id', '=', id)
    .where('lock_token', '=', lockToken)
    .where('state', '=', 'in_flight')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Frees a claim whose response is not kept, so the key can be used again at once. */
export async function deleteClaim(db: Executor, id: number, lockToken: string): Promise<void> {
  await db
    .deleteFrom('idempotency_key')
    .where('id', '=', id)
    .where('lock_token', '=', lockToken)
    .where('state', '=', 'in_flight')
    .execute();
}

export async function deleteExpired(db: Executor, now: string): Promise<number> {
  const result = await runPlannedPerRun(db, db.deleteFrom('idempotency_key').where('expires_at', '<=', now));
  return Number(result.numAffectedRows ?? 0n);
}
