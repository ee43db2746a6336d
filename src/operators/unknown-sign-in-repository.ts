import { createHash } from 'node:crypto';
import type { Executor } from '../db/database.js';
import { usernameKey } from './repository.js';

/** The counter key of a username no operator has: the SHA-256 of its lower-cased form, never the text. */
export const unknownUsernameKey = (username: string) =>
  createHash('sha256').update(usernameKey(username)).digest('hex');

/** As `takeSignInAttempt`, for a username no operator has: false while locked or at the limit. */
export async function takeUnknownSignInAttempt(
  db: Executor,
  keyHash: string,
  now: string,
  limit: number,
): Promise<boolean> {
  const result = await db
    .insertInto('operator_unknown_sign_in')
    .values({ key_hash: keyHash, failed_sign_ins: 1, locked_until: null, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('key_hash')
        .doUpdateSet((eb) => ({
          failed_sign_ins: eb('operator_unknown_sign_in.failed_sign_ins', '+', 1),
          updated_at: now,
        }))
        .where((eb) =>
          eb.and([
            eb('operator_unknown_sign_in.failed_sign_ins', '<', limit),
            eb.or([
              eb('operator_unknown_sign_in.locked_until', 'is', null),
              eb('operator_unknown_sign_in.locked_until', '<=', now),
            ]),
          ]),
        ),
    )
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** As `lockIfAtLimit`, for a username no operator has. */
export async function lockUnknownIfAtLimit(db: Executor, keyHash: string, limit: number, until: string) {
  await db
    .updateTable('operator_unknown_sign_in')
    .set({ locked_until: until, failed_sign_ins: 0 })
    .where('key_hash', '=', keyHash)
    .where('failed_sign_ins', '>=', limit)
    .execute();
}

/** Deletes up to `limit` counters untouched since `before` and not locked at `now`; returns how many. */
export async function purgeUnknownSignIns(db: Executor, before: string, now: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('operator_unknown_sign_in')
    .where(
      'key_hash',
      'in',
      db
        .selectFrom('operator_unknown_sign_in')
        .select('key_hash')
        .where('updated_at', '<', before)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
