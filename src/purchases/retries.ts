import type { HeldClaim, InFlightVerdict } from '../http/idempotency/service.js';
import type { FlowDeps } from './flow.js';
import { findPurchaseOfKey } from './repository.js';

/** States a process works through without waiting for anyone: a purchase left in one was abandoned if untouched for the grace. */
const WORKING_STATES = new Set(['STARTED', 'AUTHORISED', 'ISSUED']);
/** A live request holds its key this long at most before its purchase is recorded. */
const LIVE_REQUEST_SECONDS = 5;

/**
 * A retry whose Idempotency-Key is still held by an earlier request (alive, or dead in a crash):
 * take the key over as soon as the earlier request's purchase has its answer (an end, or a
 * challenge waiting for the cardholder), or once it has been untouched for the recovery grace
 * (the retry then finishes it as recovery would); else say truly how long to wait.
 */
export async function judgeHeldKey(deps: FlowDeps, graceSeconds: number, held: HeldClaim): Promise<InFlightVerdict> {
  const now = deps.clock().getTime();
  const purchase = await findPurchaseOfKey(deps.db, held.id);
  if (purchase && !WORKING_STATES.has(purchase.state)) return { takeOver: true };
  const since = Date.parse(purchase?.updatedAt ?? held.lockedAt);
  const idleSeconds = (now - since) / 1000;
  if (idleSeconds >= graceSeconds) return { takeOver: true };
  // A request that has not recorded its purchase yet is normally about to answer.
  if (!purchase && idleSeconds < LIVE_REQUEST_SECONDS) return { takeOver: false, retryAfterSeconds: 1 };
  return { takeOver: false, retryAfterSeconds: graceSeconds - idleSeconds };
}
