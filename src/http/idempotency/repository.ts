import type { Insertable, Selectable } from 'kysely';
import type { PlanStep } from '../../db/commit-plan.js';
import type { Executor } from '../../db/database.js';
import { runPlannedPerRun } from '../../db/per-run-plan.js';
import type { IdempotencyKeyTable } from './tables.js';

export type IdempotencyKeyRow = Selectable<IdempotencyKeyTable>;
export type NewIdempotencyKeyRow = Insertable<IdempotencyKeyTable>;

/** A key held by a request, and the record (`subject`) a commit of that request names on it. */
export interface KeyBinding {
  readonly keyId: number;
  readonly subject: string;
}

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
 * Replaces an expired record, a released one or an abandoned claim with a new claim, only if nobody
 * else did first (compare-and-set on the previous lock token). The record it names stays, unless
 * `subject: null` frees the key of it (an expired record: the key is new again).
 */
export async function takeOver(
  db: Executor,
  id: number,
  previousLockToken: string,
  claim: Pick<IdempotencyKeyRow, 'fingerprint' | 'lock_token' | 'locked_at' | 'created_at' | 'expires_at'> & {
    subject?: null;
  },
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

/**
 * Ends a claim whose response is not kept: a retry may run at once. Never deleted, so a record a
 * commit of the request named (`subject`) stays named, even when that commit is still finishing
 * (a PostgreSQL statement whose connection was cut); `unbind` frees the key of it (the answer says
 * to retry afresh: a gateway outage).
 */
export async function releaseClaim(db: Executor, id: number, lockToken: string, unbind: boolean): Promise<void> {
  await db
    .updateTable('idempotency_key')
    .set({ state: 'released', ...(unbind ? { subject: null } : {}) })
    .where('id', '=', id)
    .where('lock_token', '=', lockToken)
    .where('state', '=', 'in_flight')
    .execute();
}

interface BindingValues {
  readonly keyId: number;
  readonly keySubject: string;
}

/**
 * The step of a commit plan that names, on the key held by the request, the record the commit
 * starts or holds (`subject`), when the step `after` answered a row: both or neither are written.
 */
export function bindKeyStep(name: string, after: string, binding: KeyBinding): PlanStep<BindingValues> {
  return {
    name,
    after,
    values: { keyId: binding.keyId, keySubject: binding.subject },
    build: (qc, { v, gate }) =>
      qc.updateTable('idempotency_key').set({ subject: v.keySubject }).where('id', '=', v.keyId).where(gate),
  };
}

/** Names the record on the key in the caller's transaction (or on its own, before a gateway call). */
export async function bindKey(db: Executor, binding: KeyBinding): Promise<void> {
  await db.updateTable('idempotency_key').set({ subject: binding.subject }).where('id', '=', binding.keyId).execute();
}

export async function deleteExpired(db: Executor, now: string): Promise<number> {
  const result = await runPlannedPerRun(db, db.deleteFrom('idempotency_key').where('expires_at', '<=', now));
  return Number(result.numAffectedRows ?? 0n);
}
