import type { ExpressionBuilder, QueryCreator } from 'kysely';
import type { Database, Executor } from '../database.js';
import { dialectOf } from '../dialect.js';
import { messageOf, type OutboxMessage } from './repository.js';

/** The worker's statements: leases, SENT and failure marks, each by compare and set on the lease. */

/** A kind a worker delivers, and how many attempts a message of it gets. */
export interface KindAttempts {
  readonly kind: string;
  readonly maxAttempts: number;
}

/** What one lease statement asks: for whom, until when, of which kinds, how many. */
export interface LeaseRequest {
  readonly owner: string;
  readonly now: string;
  readonly until: string;
  readonly kinds: readonly KindAttempts[];
  readonly limit: number;
  /**
   * At most this many messages of one share (`share_key`) leased at once, counting the live leases
   * of every worker; and shares taken in turn (the first due of each before the second of any).
   * Absent: oldest due first, whatever their share.
   */
  readonly perShare?: number;
}

/** The messages of `kinds` (each below its kind's attempts), to narrow a query to. */
const ofKinds = (kinds: readonly KindAttempts[]) => (w: ExpressionBuilder<Database, 'outbox_message'>) =>
  w.or(kinds.map((k) => w.and([w('kind', '=', k.kind), w('attempts', '<', k.maxAttempts)])));

/** No live lease: never leased, given back, or its worker's time ran out. */
const leaseFree = (now: string) => (w: ExpressionBuilder<Database, 'outbox_message'>) =>
  w.or([w('lease_until', 'is', null), w('lease_until', '<', now)]);

/**
 * Leases up to `limit` messages due (of `kinds`, fewer than their kind's attempts, no live lease)
 * in one statement, by compare and set: of racing workers each gets its own, the others the next
 * ones or none. On PostgreSQL the candidates are read `for update skip locked`, so racers do not
 * queue on one row. Oldest due first; with `perShare`, shares in turn and each below its limit.
 *
 * The candidates are a materialized CTE, read once: as `id in (subquery … for update skip locked
 * limit n)` PostgreSQL may run the subquery again per row it updates, each run skipping the rows
 * the statement has just locked itself, so one lease took every due message whatever `limit` was.
 */
export async function leaseDue(db: Executor, lease: LeaseRequest): Promise<OutboxMessage[]> {
  if (lease.kinds.length === 0 || lease.limit < 1) return [];
  const postgres = dialectOf(db) === 'postgres';
  const candidates = (lease.perShare === undefined ? oldestDue : fairDue)(db, lease, postgres);
  const rows = await candidates
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
    .where(leaseFree(lease.now))
    .returningAll()
    .execute();
  rows.sort((a, b) =>
    a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : a.id - b.id,
  );
  return rows.map(messageOf);
}

/** A statement's start with the CTE `lease_candidate` (the ids to lease). */
type WithCandidates = QueryCreator<Database & { lease_candidate: { id: number } }>;

/** The candidates oldest due first. */
function oldestDue(db: Executor, lease: LeaseRequest, postgres: boolean): WithCandidates {
  return db.with(
    (cte) => cte('lease_candidate').materialized(),
    (qc) => {
      const candidates = qc
        .selectFrom('outbox_message')
        .select('id')
        .where('state', '=', 'PENDING')
        .where('next_attempt_at', '<=', lease.now)
        .where(ofKinds(lease.kinds))
        .where(leaseFree(lease.now))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(lease.limit);
      return postgres ? candidates.forUpdate().skipLocked() : candidates;
    },
  );
}

/**
 * The candidates share by share: each due message ranked within its share (oldest first), a
 * share's live leases (`lease_held`, by the `lease_until` index) added to the rank, ranks beyond
 * `perShare` left out, the rest taken rank by rank. Ranking reads every due message of the kinds.
 */
function fairDue(db: Executor, lease: LeaseRequest, postgres: boolean): WithCandidates {
  const perShare = lease.perShare ?? Number.MAX_SAFE_INTEGER;
  // Typed as the statement goes on: its update reads `lease_candidate` only.
  return db
    .with('lease_held', (qc) =>
      qc
        .selectFrom('outbox_message')
        .select((eb) => ['share_key', eb.fn.countAll<number>().as('held')])
        .where('lease_until', '>=', lease.now)
        .where('state', '=', 'PENDING')
        .where((w) => w.or(lease.kinds.map((k) => w('kind', '=', k.kind))))
        .groupBy('share_key'),
    )
    .with('lease_ranked', (qc) =>
      qc
        .selectFrom('outbox_message')
        .select((eb) => [
          'id',
          'share_key',
          'next_attempt_at',
          eb.fn
            .agg<number>('row_number')
            .over((ob) => ob.partitionBy('share_key').orderBy('next_attempt_at').orderBy('id'))
            .as('share_rank'),
        ])
        .where('state', '=', 'PENDING')
        .where('next_attempt_at', '<=', lease.now)
        .where(ofKinds(lease.kinds))
        .where(leaseFree(lease.now)),
    )
    .with(
      (cte) => cte('lease_candidate').materialized(),
      (qc) => {
        const candidates = qc
          .selectFrom('outbox_message as m')
          .innerJoin('lease_ranked as r', 'r.id', 'm.id')
          .leftJoin('lease_held as h', 'h.share_key', 'r.share_key')
          .select('m.id')
          .where((eb) => eb(eb('r.share_rank', '+', eb.fn.coalesce('h.held', eb.lit(0))), '<=', perShare))
          .orderBy('r.share_rank')
          .orderBy('r.next_attempt_at')
          .orderBy('r.id')
          .limit(lease.limit);
        return postgres ? candidates.forUpdate(['m']).skipLocked() : candidates;
      },
    ) as unknown as WithCandidates;
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
    .where(leaseFree(now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
