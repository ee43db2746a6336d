import type { FastifyInstance } from 'fastify';
import { findEvent } from '../../src/events/repository.js';
import type { OutboxMessage } from '../../src/db/outbox/repository.js';
import { startOutboxWorker, type OutboxWorker } from '../../src/db/outbox/worker.js';
import type { Resolver } from '../../src/events/webhooks/address-guard.js';
import { webhookDeliveryDepsOf, webhookDeliveryKind } from '../../src/events/webhooks/delivery.js';
import { enqueueDeliveries } from '../../src/events/webhooks/fan-out.js';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';

export {
  startWebhookReceiver,
  useWebhookReceiver,
  verifyWebhook,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';

/** A clock on real time (receivers verify against it, ±5 minutes) that a test may move forward. */
export function shiftableClock() {
  let offsetMs = 0;
  return {
    clock: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

/** The publish step of the events area, reduced to what webhooks need: fan-out in one transaction. */
async function publishForTest(t: TestApp, message: OutboxMessage): Promise<void> {
  const { eventId } = message.payload as { eventId: string };
  const event = await findEvent(t.context.db, eventId);
  if (!event) throw new Error(`no event ${eventId}`);
  await t.context.db.transaction().execute((tx) => enqueueDeliveries(tx, event, t.context.clock().toISOString()));
}

/**
 * A worker without a timer that publishes events and delivers webhooks, one lane; retries follow
 * the app's WEBHOOK_RETRY_DELAYS (the suites set a few seconds: the clock is moved, not waited for).
 */
export function webhookWorker(t: TestApp, resolve?: Resolver): OutboxWorker {
  const deps = webhookDeliveryDepsOf(t.context, resolve);
  return startOutboxWorker(
    { db: t.context.db, clock: t.context.clock, random: () => 0 },
    {
      'partner-event': (message) => publishForTest(t, message),
      'webhook-delivery': webhookDeliveryKind(deps),
    },
    { ...t.context.config.outbox, concurrency: 1, timer: false },
  );
}

export const webhooksPath = (brandCode = 'brandau') => `/partners/v1/${brandCode}/webhooks`;

/** Registers an endpoint as partner A (or B) of `brandau`; answers the created endpoint with its secret. */
export async function registerEndpoint(
  t: TestApp,
  body: Record<string, unknown>,
  options: { partner?: 'A' | 'B'; app?: FastifyInstance } = {},
): Promise<{ webhookId: string; secret: string; url: string }> {
  const response = await (options.app ?? t.app).inject({
    method: 'POST',
    url: webhooksPath(),
    headers: await bearerFor(t, 'brandau', options.partner ?? 'A'),
    payload: body,
  });
  if (response.statusCode !== 201) throw new Error(`register: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** The recorded attempts of an event to an endpoint (outcome, status, error), oldest first. */
export async function attemptsOf(t: TestApp, eventId: string) {
  return t.context.db
    .selectFrom('webhook_delivery_attempt')
    .select(['endpoint_public_id', 'attempt', 'outcome', 'status_code', 'error', 'response_excerpt', 'latency_ms'])
    .where('event_id', '=', eventId)
    .orderBy('attempt')
    .execute();
}
