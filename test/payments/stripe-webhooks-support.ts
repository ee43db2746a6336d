import Stripe from 'stripe';
import type { LightMyRequestResponse } from 'fastify';
import { findEvent } from '../../src/payments/stripe/webhooks/repository.js';
import type { StripeEvent } from '../../src/payments/stripe/webhooks/model.js';
import { afterEach } from 'vitest';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { until } from '../helpers/polling.js';

/** The endpoint secret the tests' app is configured with (STRIPE_WEBHOOK_SECRET). */
export const SECRET = 'whsec_test_0123456789abcdef';

// Only the SDK's webhook helpers are used: no call ever leaves the process.
const stripe = new Stripe('sk_test_unused');
let serial = 0;

/** A Stripe event as Stripe would send it (pretty-printed, as Stripe does). */
export function stripeEvent(type: string, object: Record<string, unknown>, at: Date, id?: string) {
  serial += 1;
  return {
    id: id ?? `evt_test_${Date.now().toString(36)}_${serial}`,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(at.getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** POSTs `event` signed with the SDK's test header (our clock's time), or with `header` as given. */
export async function deliver(
  t: TestApp,
  event: { readonly id: string },
  options: { secret?: string; header?: string | null; at?: Date } = {},
): Promise<LightMyRequestResponse> {
  const payload = JSON.stringify(event, null, 2);
  const timestamp = Math.floor((options.at ?? t.context.clock()).getTime() / 1000);
  const header =
    options.header === undefined
      ? stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? SECRET, timestamp })
      : options.header;
  return t.app.inject({
    method: 'POST',
    url: '/webhooks/stripe',
    headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'stripe-signature': header }) },
    payload,
  });
}

/** The recorded event once its application (after the answer) has said what it did, or failed. */
export async function settled(t: TestApp, eventId: string): Promise<StripeEvent> {
  let seen: StripeEvent | undefined;
  await until(async () => {
    seen = await findEvent(t.context.db, eventId);
    return seen?.outcome !== undefined || seen?.lastError !== undefined;
  }, `stripe event ${eventId} applied`);
  return seen!;
}

export async function capturedEvents(t: TestApp, policyNumber: string): Promise<number> {
  const rows = await t.context.db
    .selectFrom('partner_event')
    .select('id')
    .where('type', '=', 'payment.captured')
    .where('policy_number', '=', policyNumber)
    .execute();
  return rows.length;
}

export const paymentIntent = (id: string, status: string, amountMinor: number) => ({
  id,
  object: 'payment_intent',
  amount: amountMinor,
  currency: 'aud',
  status,
});

/**
 * The app of the webhook tests: demo data, the endpoint's secret, a clock a test may move
 * (`clockAt`, back to `start` after each test) and a crash hook it may set (`hook`).
 */
export function useStripeWebhookApp(start: Date) {
  const world: { clockAt: Date; hook?: ((step: string) => void) | undefined; getApp: () => TestApp } = {
    clockAt: start,
    getApp: () => {
      throw new Error('the app is built in beforeAll');
    },
  };
  world.getApp = useTestApp({
    env: { DEMO_DATA: 'true', STRIPE_WEBHOOK_SECRET: SECRET },
    clock: () => world.clockAt,
    crashHook: (step: string) => world.hook?.(step),
  });
  afterEach(() => {
    world.clockAt = start;
    world.hook = undefined;
  });
  return world;
}
