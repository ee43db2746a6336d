import Stripe from 'stripe';
import type { StripeWebhookConfig } from '../../../config/stripe-webhooks.js';
import { failureName } from '../../../db/refused-values.js';
import type { Clock } from '../../../context.js';
import { now } from '../../flow/flow.js';
import { applyDispute } from './apply-disputes.js';
import { applyPaymentIntent, done, type ApplyDeps } from './apply-payments.js';
import { applyRefund } from './apply-refunds.js';
import { StripeSignatureInvalid, StripeWebhooksNotConfigured } from './errors.js';
import { eventFactsOf } from './facts.js';
import {
  DISPUTE_EVENTS,
  PAYMENT_INTENT_EVENTS,
  REFUND_EVENTS,
  type Application,
  type EventFacts,
  type StripeEvent,
} from './model.js';
import { dueEvents, findEvent, finishEvent, holdEvent, postponeEvent, recordEvent } from './repository.js';

/**
 * Stripe's webhooks, record then apply: a verified event is recorded (keyed by Stripe's event id:
 * a redelivery is acknowledged and ignored) and held by the receiving process for the grace; it is
 * applied after the answer. An application that failed, was cut by a crash or waits for our own
 * step leaves the event RECEIVED, and every server's recovery sweep applies the due ones again
 * (`applyDueEvents`, leased by compare and set). Applying is idempotent: apply-*.ts.
 */

/** The verified event's facts; a missing or wrong signature, or one outside the tolerance, is refused. */
export function verifiedFacts(
  config: StripeWebhookConfig,
  clock: Clock,
  rawBody: string,
  signature: string | undefined,
): EventFacts {
  if (config.secret === undefined) throw new StripeWebhooksNotConfigured();
  if (signature === undefined || signature === '') throw new StripeSignatureInvalid();
  let event: Stripe.Event;
  try {
    // The tolerance is checked against our clock (the SDK takes milliseconds), as every other time rule here is.
    const receivedAt = clock().getTime();
    event = Stripe.webhooks.constructEvent(
      rawBody,
      signature,
      config.secret,
      config.toleranceSeconds,
      undefined,
      receivedAt,
    );
  } catch {
    throw new StripeSignatureInvalid();
  }
  return eventFactsOf(event);
}

/** How long the receiving process holds its event at least (the grace may be 0). */
const MIN_HOLD_SECONDS = 30;

const plus = (at: string, seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();

/** Records a verified event; false for a redelivery (recorded already: nothing more happens). */
export async function receiveEvent(deps: ApplyDeps, facts: EventFacts): Promise<boolean> {
  const at = now(deps);
  // Held at least half a minute, so the sweep does not race the application that follows the answer.
  return recordEvent(deps.db, facts, at, plus(at, Math.max(deps.graceSeconds, MIN_HOLD_SECONDS)));
}

/** What an event does, by its type (docs/api-contract.md, "Stripe webhooks"). */
export function applyEvent(deps: ApplyDeps, event: StripeEvent): Promise<Application> {
  const { type, object } = event;
  if ((PAYMENT_INTENT_EVENTS as readonly string[]).includes(type) && object.kind === 'payment_intent')
    return applyPaymentIntent(deps, type, object.paymentId);
  if ((REFUND_EVENTS as readonly string[]).includes(type)) return applyRefund(deps, type, object);
  if ((DISPUTE_EVENTS as readonly string[]).includes(type)) return applyDispute(deps, type, object, event.createdAt);
  return Promise.resolve(done('ignored: no action for this type'));
}

/** A failed application is tried again later, each time a little later (at most an hour apart). */
const retryDelaySeconds = (deps: ApplyDeps, attempts: number) =>
  Math.min(3600, Math.max(1, deps.graceSeconds) * 2 ** Math.min(attempts, 12));

async function applyHeld(deps: ApplyDeps, event: StripeEvent): Promise<Application | undefined> {
  try {
    const application = await applyEvent(deps, event);
    if (application.result === 'done') await finishEvent(deps.db, event.eventId, application.outcome, now(deps));
    else
      await postponeEvent(
        deps.db,
        event.eventId,
        { until: application.until, outcome: application.outcome },
        now(deps),
      );
    return application;
  } catch (error) {
    const reason = failureName(error);
    deps.log?.error(
      { err: error, eventId: event.eventId, type: event.type },
      'stripe: applying an event failed; retried later',
    );
    const until = plus(now(deps), retryDelaySeconds(deps, event.attempts));
    await postponeEvent(deps.db, event.eventId, { until, error: reason }, now(deps)).catch(() => undefined);
    return undefined;
  }
}

/** Applies an event this process has just recorded (it holds it until the grace ends). */
export async function applyReceived(deps: ApplyDeps, eventId: string): Promise<Application | undefined> {
  const event = await findEvent(deps.db, eventId);
  if (!event || event.state !== 'RECEIVED') return undefined;
  return applyHeld(deps, event);
}

export interface SweepReport {
  readonly applied: number;
  readonly waiting: number;
  readonly failed: number;
}

/**
 * The sweep's part (every server, purchases/sweeper.ts `alsoRecover`): RECEIVED events whose hold
 * ran out (a crash cut their application, it failed, or they wait for our own step), each leased by
 * compare and set so one process applies it. One bad event never stops the run.
 */
export async function applyDueEvents(deps: ApplyDeps): Promise<SweepReport> {
  let applied = 0;
  let waiting = 0;
  let failed = 0;
  for (const event of await dueEvents(deps.db, now(deps))) {
    const at = now(deps);
    if (!(await holdEvent(deps.db, event, at, plus(at, deps.graceSeconds)))) continue;
    const application = await applyHeld(deps, { ...event, attempts: event.attempts + 1 });
    if (application === undefined) failed += 1;
    else if (application.result === 'done') applied += 1;
    else waiting += 1;
  }
  const report = { applied, waiting, failed };
  if (applied + waiting + failed > 0) deps.log?.info(report, 'stripe events sweep finished');
  return report;
}
