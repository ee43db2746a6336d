import { sql } from 'kysely';
import type { Executor, Tx } from '../db/database.js';
import { runPlannedPerRun } from '../db/per-run-plan.js';
import type { RefreshTokenRow, SigningKeyRow } from './tables.js';

/** Signing keys, refresh tokens and failed-login counters: every query, row types stay here. */

export interface StoredKey {
  kid: string;
  algorithm: string;
  publicKeyPem: string;
  privateKeySealed: string;
  retired: boolean;
  verifyUntil: string | null;
}

const toKey = (row: SigningKeyRow): StoredKey => ({
  kid: row.kid,
  algorithm: row.algorithm,
  publicKeyPem: row.public_key_pem,
  privateKeySealed: row.private_key_sealed,
  retired: row.retired_at !== null,
  verifyUntil: row.verify_until,
});

/** Keys that may still verify at `now` (active, or retired but not past `verify_until`), newest first. */
export async function listUsableKeys(db: Executor, algorithm: string, now: string): Promise<StoredKey[]> {
  const rows = await db
    .selectFrom('signing_key')
    .selectAll()
    .where('algorithm', '=', algorithm)
    .where((eb) => eb.or([eb('verify_until', 'is', null), eb('verify_until', '>', now)]))
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toKey);
}

export async function findUsableKey(
  db: Executor,
  kid: string,
  algorithm: string,
  now: string,
): Promise<StoredKey | undefined> {
  const row = await db
    .selectFrom('signing_key')
    .selectAll()
    .where('kid', '=', kid)
    .where('algorithm', '=', algorithm)
    .where((eb) => eb.or([eb('verify_until', 'is', null), eb('verify_until', '>', now)]))
    .executeTakeFirst();
  return row && toKey(row);
}

export async function insertKey(
  db: Executor,
  key: Omit<StoredKey, 'retired' | 'verifyUntil'>,
  now: string,
): Promise<void> {
  await db
    .insertInto('signing_key')
    .values({
      kid: key.kid,
      algorithm: key.algorithm,
      public_key_pem: key.publicKeyPem,
      private_key_sealed: key.privateKeySealed,
      created_at: now,
    })
    .execute();
}

/** Retires every active key except `keepKid`; they keep verifying until `verifyUntil`. */
export async function retireKeysExcept(
  db: Executor,
  keepKid: string,
  now: string,
  verifyUntil: string,
): Promise<number> {
  const result = await db
    .updateTable('signing_key')
    .set({ retired_at: now, verify_until: verifyUntil })
    .where('retired_at', 'is', null)
    .where('kid', '<>', keepKid)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type RefreshTokenRecord = RefreshTokenRow;

export async function insertRefreshToken(
  db: Executor,
  row: Omit<RefreshTokenRow, 'id' | 'used_at' | 'revoked_at'>,
): Promise<void> {
  await db.insertInto('refresh_token').values(row).execute();
}

export async function findRefreshToken(db: Executor, tokenHash: string): Promise<RefreshTokenRecord | undefined> {
  return db.selectFrom('refresh_token').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the token used only if nobody did first: of concurrent callers exactly one gets true. */
export async function claimRefreshToken(tx: Tx, id: number, now: string): Promise<boolean> {
  const result = await tx
    .updateTable('refresh_token')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeFamily(db: Executor, familyId: string, now: string): Promise<void> {
  await db
    .updateTable('refresh_token')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Whether a family was revoked (reuse detected, user deactivated): every token of it is then marked. */
export async function isFamilyRevoked(db: Executor, familyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_token')
    .select('id')
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export interface FailureCount {
  failures: number;
  windowStartedAt: string;
}

export async function readFailures(db: Executor, keys: readonly string[]): Promise<Map<string, FailureCount>> {
  const rows = await db.selectFrom('login_failure').selectAll().where('key', 'in', keys).execute();
  return new Map(rows.map((r) => [r.key, { failures: r.failures, windowStartedAt: r.window_started_at }]));
}

/**
 * Takes one sign-in attempt from `key`'s budget in one statement (safe across processes and
 * concurrent requests): a window older than `windowStart` restarts at 1; a window already at
 * `limit` is left alone and nothing is returned, which means "locked".
 */
export async function reserveAttempt(
  db: Executor,
  key: string,
  limit: number,
  now: string,
  windowStart: string,
): Promise<FailureCount | undefined> {
  const row = await db
    .insertInto('login_failure')
    .values({ key, failures: 1, window_started_at: now })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          failures: sql<number>`case when login_failure.window_started_at <= ${windowStart} then 1 else login_failure.failures + 1 end`,
          window_started_at: sql<string>`case when login_failure.window_started_at <= ${windowStart} then ${now} else login_failure.window_started_at end`,
        })
        .where(sql<boolean>`login_failure.window_started_at <= ${windowStart} or login_failure.failures < ${limit}`),
    )
    .returning(['failures', 'window_started_at'])
    .executeTakeFirst();
  return row && { failures: row.failures, windowStartedAt: row.window_started_at };
}

/** Gives back one attempt taken in the window that started at `windowStartedAt` (a newer window is left alone). */
export async function releaseAttempt(db: Executor, key: string, windowStartedAt: string): Promise<void> {
  await db
    .updateTable('login_failure')
    .set({ failures: sql<number>`failures - 1` })
    .where('key', '=', key)
    .where('window_started_at', '=', windowStartedAt)
    .where('failures', '>', 0)
    .execute();
}

/**
 * Clears the counter only if no attempt was taken after `failures` was reached in that window:
 * attempts racing a successful sign-in stay counted. Returns whether it cleared.
 */
export async function clearFailuresUpTo(
  db: Executor,
  key: string,
  windowStartedAt: string,
  failures: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('login_failure')
    .where('key', '=', key)
    .where('window_started_at', '=', windowStartedAt)
    .where('failures', '<=', failures)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Housekeeping: counters whose window closed before `windowStart` no longer matter. */
export async function purgeClosedWindows(db: Executor, windowStart: string): Promise<void> {
  await runPlannedPerRun(db, db.deleteFrom('login_failure').where('window_started_at', '<=', windowStart));
}

/** Housekeeping: once a family's absolute lifetime is over, none of its tokens can be used or replayed usefully. */
export async function purgeExpiredFamilies(db: Executor, now: string): Promise<void> {
  await runPlannedPerRun(db, db.deleteFrom('refresh_token').where('family_expires_at', '<=', now));
}
