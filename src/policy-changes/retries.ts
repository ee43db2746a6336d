import type { Executor } from '../db/database.js';
import type { HeldClaim, InFlightVerdict } from '../http/idempotency/service.js';
import { findChangeOfKey } from './repository.js';

/** States a confirming process works through without waiting for anyone (recovery finishes them). */
const WORKING_STATES = new Set(['STARTED', 'APPLIED', 'REFUNDING']);
/** A live request holds its key this long at most before it holds the policy. */
const LIVE_REQUEST_SECONDS = 5;

/**
 * A retried confirmation whose Idempotency-Key is still held by an earlier request (alive, or
 * dead in a crash: its claim is never released): take the key over as soon as the change it
 * started has its answer (settled, refused, or a challenge waiting for the cardholder), or once
 * it has been untouched for the recovery grace (the retry then finishes it as recovery would);
 * else say truly how long to wait. As purchases/retries.ts does for purchases.
 */
export async function judgeHeldChangeKey(
  deps: { readonly db: Executor; readonly clock: () => Date },
  graceSeconds: number,
  held: HeldClaim,
): Promise<InFlightVerdict> {
  const change = await findChangeOfKey(deps.db, held.id);
  if (change && !WORKING_STATES.has(change.state)) return { takeOver: true };
  const since = Date.parse(change?.updatedAt ?? held.lockedAt);
  const idleSeconds = (deps.clock().getTime() - since) / 1000;
  if (idleSeconds >= graceSeconds) return { takeOver: true };
  // A request that has not held the policy yet is normally about to answer.
  if (!change && idleSeconds < LIVE_REQUEST_SECONDS) return { takeOver: false, retryAfterSeconds: 1 };
  return { takeOver: false, retryAfterSeconds: graceSeconds - idleSeconds };
}
