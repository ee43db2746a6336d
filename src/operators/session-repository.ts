import type { Executor } from '../db/database.js';

/** A stored console session: its JSON and when it ends. */
export interface StoredSession {
  readonly data: string;
  readonly expiresAt: string;
}

/** Inserts or replaces the session of this id hash (its creation time stays the first one's). */
export async function saveSession(
  db: Executor,
  session: { sidHash: string; operatorId: number | null; data: string; at: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('operator_session')
    .values({
      sid_hash: session.sidHash,
      operator_id: session.operatorId,
      data: session.data,
      created_at: session.at,
      expires_at: session.expiresAt,
    })
    .onConflict((oc) =>
      oc.column('sid_hash').doUpdateSet({
        operator_id: session.operatorId,
        data: session.data,
        expires_at: session.expiresAt,
      }),
    )
    .execute();
}

/** The session of this id hash unless it has expired by `now`. */
export async function findSession(db: Executor, sidHash: string, now: string): Promise<StoredSession | undefined> {
  const row = await db
    .selectFrom('operator_session')
    .select(['data', 'expires_at'])
    .where('sid_hash', '=', sidHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row && { data: row.data, expiresAt: row.expires_at };
}

export async function deleteSession(db: Executor, sidHash: string): Promise<void> {
  await db.deleteFrom('operator_session').where('sid_hash', '=', sidHash).execute();
}

/** Deletes every session of the operator; returns how many there were. */
export async function deleteSessionsOf(db: Executor, operatorId: number): Promise<number> {
  const result = await db.deleteFrom('operator_session').where('operator_id', '=', operatorId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes up to `limit` sessions expired by `now`; returns how many. */
export async function deleteExpiredSessions(db: Executor, now: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('operator_session')
    .where(
      'sid_hash',
      'in',
      db.selectFrom('operator_session').select('sid_hash').where('expires_at', '<=', now).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
