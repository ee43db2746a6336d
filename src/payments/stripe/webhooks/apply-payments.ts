import type { MoneyArea, MoneyDeps, Payable } from '../../flow/area.js';
import { continueChallenge, current, isWaiting, now } from '../../flow/flow.js';
import { purchaseMoney } from '../../../purchases/flow.js';
import { findPurchaseOfPayment } from '../../../purchases/repository.js';
import { leasePurchase } from '../../../purchases/repository-leases.js';
import { changeMoney } from '../../../policy-changes/settlement.js';
import { moveChange } from '../../../policy-changes/repository.js';
import { findChangeOfPayment } from '../../../policy-changes/repository-payments.js';
import type { Application } from './model.js';

/**
 * A PaymentIntent event applied to the purchase or policy change that payment belongs to, through
 * the one money flow (never a second path that moves money). The event only says "look now": what
 * the record does next is what its own flow would do, asked of the gateway with the record's own
 * keys (the gateway replays), and recorded by compare and set on the record's state. So an event
 * that arrives before, during or after our own step changes nothing twice:
 * - a 3-D Secure challenge waiting for the partner's continuation is continued (the gateway
 *   answers whether the cardholder passed it);
 * - a record our own process is working on is left to it while it is fresh (the event is applied
 *   again once the record has been left alone for the recovery grace), then leased as recovery
 *   leases it and taken as far as it goes (a lost capture answer: captured, replayed);
 * - a record already past the gateway's step: nothing.
 */
export interface ApplyDeps extends MoneyDeps {
  /** Records touched within this many seconds belong to the process working on them. */
  readonly graceSeconds: number;
}

export const done = (outcome: string): Application => ({ result: 'done', outcome });

type WithExpiry = { readonly challengeExpiresAt?: string };

const FAILED_TYPES: readonly string[] = ['payment_intent.payment_failed', 'payment_intent.canceled'];

async function onRecord<S extends string, P extends Payable<S> & WithExpiry, R>(
  deps: ApplyDeps,
  area: MoneyArea<S, P, R>,
  record: P,
  type: string,
  lease: (record: P, at: string) => Promise<boolean>,
): Promise<Application> {
  const at = now(deps);
  const name = `${area.name} ${record.id}`;
  if (isWaiting(area, record)) {
    if ((record.challengeExpiresAt ?? at) <= at) return done(`nothing: ${name}'s challenge expired (recovery ends it)`);
    const threeDSStatus = FAILED_TYPES.includes(type) ? 'CHALLENGE_FAILED' : 'CHALLENGE_COMPLETED';
    const info = { threeDSStatus, threeDSRequest: record.challenge.threeDSResponse };
    const continued = await continueChallenge(area, deps, record, info);
    if ('refused' in continued) return done(`nothing: ${name}'s challenge cannot be continued`);
    const after = await current(area, deps.db, record.id);
    return done(`continued ${name}'s challenge: ${record.state} → ${after.state}`);
  }
  if (!area.working.includes(record.state)) return done(`nothing: ${name} is ${record.state} already`);
  const leftAlone = Date.parse(record.updatedAt) + deps.graceSeconds * 1000;
  if (leftAlone > Date.parse(at))
    return {
      result: 'later',
      outcome: `waiting: our own step is working on ${name} (${record.state})`,
      until: new Date(leftAlone + 1000).toISOString(),
    };
  if (!(await lease(record, at)))
    return {
      result: 'later',
      outcome: `waiting: another process took ${name}`,
      until: new Date(Date.parse(at) + deps.graceSeconds * 1000 + 1000).toISOString(),
    };
  const leased = await current(area, deps.db, record.id);
  await area.advance(deps, leased);
  const after = await current(area, deps.db, record.id);
  return done(`advanced ${name}: ${record.state} → ${after.state}`);
}

/** `payment_intent.*`: the purchase or change paid by that PaymentIntent, as far as its flow goes. */
export async function applyPaymentIntent(deps: ApplyDeps, type: string, paymentId: string): Promise<Application> {
  const purchase = await findPurchaseOfPayment(deps.db, paymentId);
  if (purchase)
    return onRecord(deps, purchaseMoney, purchase, type, (p, at) =>
      leasePurchase(deps.db, { id: p.id, state: p.state, updatedAt: p.updatedAt }, at),
    );
  const change = await findChangeOfPayment(deps.db, paymentId);
  if (change)
    return onRecord(
      deps,
      changeMoney,
      change,
      type,
      async (c, at) => (await moveChange(deps.db, c, [c.state], c.state, {}, at, c.updatedAt)) !== undefined,
    );
  return done('nothing: no purchase or policy change has this payment');
}
