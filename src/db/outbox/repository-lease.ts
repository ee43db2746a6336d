import type { Executor } from '../database.js';
import { dialectOf } from '../dialect.js';
import { messageOf, type OutboxMessage } from './repository.js';

/** The worker's statements: leases, SENT and failure marks, each by compare and set on the lease. */

/** A kind a worker delivers, and how many attempts a message of it gets. */
export interface KindAttempts {
  readonly kind: string;
  readonly maxAttempts: number;
}

/**
 * Leases up to `limit` messages due (of `kinds`, fewer than their kind's attempts, no live lease)
 * in one statement, by compare and set: of racing workers each gets its own, the others the next
 * ones or none. On PostgreSQL the candidates are read `for update skip locked`, so racers do not
 * queue on one row. Oldest due first.
 *
 * The candidates are a materialized CTE, read once: as `id in (subquery … for update skip locked
 * limit n)` PostgreSQL may run the subquery again per row it updates, each run skipping the rows
 * the statement has just locked itself, so one lease took every due message whatever `limit` was.
 */
export async function leaseDue(
  db: Executor,
  lease: { owner: string; now: string; until: string; kinds: readonly KindAttempts[]; limit: number },
): Promise<OutboxMessage[]> {
  if (lease.kinds.length === 0 || lease.limit < 1) return [];
  const postgres = dialectOf(db) === 'postgres';
  const rows = await db
    .with(
      (cte) => cte('lease_candidate').materialized(),
      (qc) => {
        const candidates = qc
          .selectFrom('outbox_message')
          .select('id')
          .where('state', '=', 'PENDING')
          .where('next_attempt_at', '<=', lease.now)
          .where((w) =>
            w.or(lease.kinds.map((k) => w.and([w('kind', '=', k.kind), w('attempts', '<', k.maxAttempts)]))),
          )
          .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', lease.now)]))
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(lease.limit);
        return postgres ? candidates.forUpdate().skipLocked() : candidates;
      },
    )
    .updateTable('outbox_message')
    .set((eb) => ({
      lease_owner: lease.owner,
      lease_until: lease.until,
      attempts: eb('attempts', '+', 1),
      updated_at: lease.now,
    }))
    .where('id', 'in', (eb) => eb.selectFrom('lease_candidate').select('lease_candidate.id'))
    // Compare and set: the row is still free (a racer read the same candidate without a lock).
    .where('state', '=', 'PENDING')
    .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', lease.now)]))
    .returningAll()
    .execute();
  rows.sort((a, b) =>
    a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : a.id - b.id,
  );
  return rows.map(messageOf);
}

/**
 * Marks leased messages SENT in one statement; answers those marked. A message missing from the
 * answer had lost its lease meanwhile (another worker owns it).
 */
export async function markSent(db: Executor, ids: readonly number[], owner: string, at: string): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .updateTable('outbox_message')
    .set({ state: 'SENT', sent_at: at, updated_at: at, lease_owner: null, lease_until: null, last_error: null })
    .where('id', 'in', [...ids])
    .where('state', '=', 'PENDING')
    .where('lease_owner', '=', owner)
    .returning('id')
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Gives back leased messages whose delivery never started (the worker is stopping): free for any
 * worker now, the attempt their lease counted not spent.
 */
export async function releaseLeases(db: Executor, ids: readonly number[], owner: string, at: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('outbox_message')
    .set((eb) => ({ lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1), updated_at: at }))
    .where('id', 'in', [...ids])
    .where('state', '=', 'PENDING')
    .where('lease_owner', '=', owner)
    .execute();
}

/** Records a failed delivery: due again at `retryAt`, or FAILED when `retryAt` is undefined. */
export async function markFailed(
  db: Executor,
  failure: { id: number; owner: string; at: string; error: string; retryAt?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('outbox_message')
    .set({
      state: failure.retryAt === undefined ? 'FAILED' : 'PENDING',
      next_attempt_at: failure.retryAt ?? failure.at,
      last_error: failure.error,
      updated_at: failure.at,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', failure.id)
    .where('state', '=', 'PENDING')
    .where('lease_owner', '=', failure.owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Messages whose last attempt died with its worker (lease expired, no attempt left): FAILED. */
export async function failAbandoned(db: Executor, now: string, kinds: readonly KindAttempts[]): Promise<number> {
  if (kinds.length === 0) return 0;
  const result = await db
    .updateTable('outbox_message')
    .set({ state: 'FAILED', last_error: 'LeaseExpired', updated_at: now, lease_owner: null, lease_until: null })
    .where('state', '=', 'PENDING')
    .where((w) => w.or(kinds.map((k) => w.and([w('kind', '=', k.kind), w('attempts', '>=', k.maxAttempts)]))))
    .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
