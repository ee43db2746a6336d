import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { deleteExpiredSessions } from './session-repository.js';
import { purgeUnknownSignIns } from './unknown-sign-in-repository.js';

/** Failure counters of unknown usernames are kept this long after their last failure (and while locked). */
const UNKNOWN_SIGN_IN_KEEP_MS = 24 * 3_600_000;

/**
 * What the operators' tables hold past its use: expired console sessions (never served: the store
 * reads only live ones) and idle failure counters of unknown usernames. Up to `limit` rows of each;
 * every server's recovery sweep runs it (server.ts). Safe with several processes at once.
 */
export async function purgeOperatorLeftovers(
  deps: { readonly db: Db; readonly clock: Clock },
  limit: number,
): Promise<{ sessions: number; unknownSignIns: number }> {
  const now = deps.clock();
  const sessions = await deleteExpiredSessions(deps.db, now.toISOString(), limit);
  const before = new Date(now.getTime() - UNKNOWN_SIGN_IN_KEEP_MS).toISOString();
  const unknownSignIns = await purgeUnknownSignIns(deps.db, before, now.toISOString(), limit);
  return { sessions, unknownSignIns };
}
