import type { Executor } from '../../db/database.js';
import type { HeldClaim, InFlightVerdict } from '../../http/idempotency/service.js';
import type { MoneyArea, Payable } from './area.js';

/** A live request holds its key this long at most before its record (a purchase, a held change) is written. */
const LIVE_REQUEST_SECONDS = 5;

/**
 * A retry whose Idempotency-Key is still held by an earlier request (alive, or dead in a crash:
 * its claim is never released): take the key over as soon as the record that request started
 * has its answer (an end, or a challenge waiting for the cardholder), or once it has been
 * untouched for the recovery grace (the retry then finishes it as recovery would); else say
 * truly how long to wait.
 */
export async function judgeHeldKey<S extends string, P extends Payable<S>, R>(
  area: Pick<MoneyArea<S, P, R>, 'ofKey' | 'working'>,
  deps: { readonly db: Executor; readonly clock: () => Date },
  graceSeconds: number,
  held: HeldClaim,
): Promise<InFlightVerdict> {
  const record = await area.ofKey(deps.db, held.id);
  if (record && !area.working.includes(record.state)) return { takeOver: true };
  const since = Date.parse(record?.updatedAt ?? held.lockedAt);
  const idleSeconds = (deps.clock().getTime() - since) / 1000;
  if (idleSeconds >= graceSeconds) return { takeOver: true };
  // A request that has not written its record yet is normally about to answer.
  if (!record && idleSeconds < LIVE_REQUEST_SECONDS) return { takeOver: false, retryAfterSeconds: 1 };
  return { takeOver: false, retryAfterSeconds: graceSeconds - idleSeconds };
}
