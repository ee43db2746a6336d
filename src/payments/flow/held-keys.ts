import type { Executor } from '../../db/database.js';
import type { HeldClaim, InFlightVerdict } from '../../http/idempotency/service.js';
import type { MoneyArea, Payable } from './area.js';

/**
 * A retry whose Idempotency-Key is still held by an earlier request (alive, or dead in a crash:
 * its claim is never released): take the key over as soon as the record that request started or
 * continued (the key's `subject`) has its answer (an end, or a challenge waiting for the
 * cardholder), or once it has been untouched for the recovery grace (the retry then finishes it as
 * recovery would); else say how long to wait. A request untouched for a moment is nearly always alive and about to answer (a
 * purchase takes milliseconds), one untouched for long is likely dead: the wait grows with the
 * time untouched (1 s, then as long again), and never past the grace's end.
 */
export async function judgeHeldKey<S extends string, P extends Payable<S>, R>(
  area: Pick<MoneyArea<S, P, R>, 'ofSubject' | 'working'>,
  deps: { readonly db: Executor; readonly clock: () => Date },
  graceSeconds: number,
  held: HeldClaim,
): Promise<InFlightVerdict> {
  const record = held.subject === undefined ? undefined : await area.ofSubject(deps.db, held.subject);
  if (record && !area.working.includes(record.state)) return { takeOver: true };
  const since = Date.parse(record?.updatedAt ?? held.lockedAt);
  const idleSeconds = (deps.clock().getTime() - since) / 1000;
  if (idleSeconds >= graceSeconds) return { takeOver: true };
  return { takeOver: false, retryAfterSeconds: Math.max(1, Math.min(idleSeconds, graceSeconds - idleSeconds)) };
}
