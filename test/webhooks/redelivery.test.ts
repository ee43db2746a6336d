import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventType } from '../../src/events/model.js';
import { recordEvent } from '../../src/events/repository.js';
import { findMessage } from '../../src/db/outbox/repository.js';
import { enqueueDeliveries } from '../../src/events/webhooks/fan-out.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { eventsCall, publishEvents } from '../events/support.js';
import {
  registerEndpoint,
  startWebhookReceiver,
  webhookWorker,
  webhooksPath,
  type WebhookReceiver,
} from './support.js';

/**
 * Redelivery of events an endpoint missed (disabled then, registered later, not subscribed):
 * docs/api-contract.md "Redelivery". Events happen in January 2020, the bulk test's on a day of its
 * own so that its range holds only them; every test deletes its endpoints at the end.
 */
describe(`redelivery of missed events to webhook endpoints (${DIALECT})`, () => {
  const testApp = useTestApp();
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.answer(() => ({ status: 200 }));
  });
  afterAll(async () => {
    await receiver.close();
  });
  afterEach(async () => {
    const { db, clock } = testApp().context;
    const at = clock().toISOString();
    await db
      .updateTable('webhook_endpoint')
      .set({ deleted_at: at, enabled: 0 })
      .where('deleted_at', 'is', null)
      .execute();
  });

  let paths = 0;
  let second = 0;
  const receivedAt = (path: string) => receiver.received.filter((r) => r.path === `/hooks${path}`);

  /** Registers an endpoint of partner A on the receiver; answers it with its path and partner id. */
  async function endpoint(body: Record<string, unknown> = {}) {
    const t = testApp();
    const path = `/r${++paths}`;
    const registered = await registerEndpoint(t, { url: `${receiver.url}${path}`, ...body });
    const row = await t.context.db
      .selectFrom('webhook_endpoint')
      .select('partner_id')
      .where('public_id', '=', registered.webhookId)
      .executeTakeFirstOrThrow();
    return { ...registered, path, partnerId: row.partner_id };
  }

  async function setEnabled(webhookId: string, enabled: boolean) {
    const t = testApp();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${webhooksPath()}/${webhookId}`,
      headers: await bearerFor(t, 'brandau'),
      payload: { enabled },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** The `data` of a policy's event of `type`, as the document describes it (GET …/events/{id} answers it). */
  function dataOf(type: EventType): Record<string, unknown> {
    const policy = { brandCode: 'brandau', sequenceNumber: 1, externalIdentifiers: { bookingReference: null } };
    if (type === 'payment.captured' || type === 'payment.refunded')
      return { ...policy, amount: 10, currency: 'AUD', paymentReference: 'pay_fixture' };
    const amounts = { currency: 'AUD', transactionAmount: 10, totalPaidToDate: 10 };
    return { ...policy, actionType: 'Purchase', policyStatus: 'Active', amounts };
  }

  /** Records an event of a policy of partner A on 2020-01-`day` and publishes it with the real fan-out. */
  async function publishedEvent(type: EventType, partnerId: number, day = 1): Promise<string> {
    const t = testApp();
    const at = new Date(Date.UTC(2020, 0, day, 0, 0, ++second)).toISOString();
    const eventId = await t.context.db.transaction().execute((tx) =>
      recordEvent(tx, {
        type,
        sourceKey: `${type}:${Math.random()}`,
        partnerId,
        brandCode: 'brandau',
        policyNumber: 'TIAU200000001',
        at,
        data: dataOf(type),
      }),
    );
    await publishEvents(t, (tx, event, now) => enqueueDeliveries(tx, event, now));
    return eventId!;
  }

  async function deliver() {
    const worker = webhookWorker(testApp());
    try {
      await worker.runOnce();
    } finally {
      await worker.stop();
    }
  }

  const message = (eventId: string, webhookId: string) =>
    findMessage(testApp().context.db, `webhook:${eventId}:${webhookId}`);

  it('redelivers an event missed while disabled, to every live subscribed endpoint and to webhookId', async () => {
    const t = testApp();
    const missed = await endpoint({ eventTypes: ['payment.captured'] });
    await setEnabled(missed.webhookId, false);
    const first = await publishedEvent('payment.captured', missed.partnerId);
    const second = await publishedEvent('payment.captured', missed.partnerId);
    expect(await message(first, missed.webhookId)).toBeUndefined();
    await setEnabled(missed.webhookId, true);

    // Without webhookId: the live endpoint subscribed to the type, though it had no delivery.
    const all = await eventsCall(t, 'POST', `/${first}/redeliver`);
    expect(all.statusCode, all.body).toBe(202);
    expect(all.json()).toEqual({ count: 1 });
    // With webhookId.
    const one = await eventsCall(t, 'POST', `/${second}/redeliver`, { body: { webhookId: missed.webhookId } });
    expect(one.statusCode, one.body).toBe(202);
    expect(one.json()).toEqual({ count: 1 });

    await deliver();
    expect(
      receivedAt(missed.path)
        .map((r) => r.headers['webhook-id'])
        .sort(),
    ).toEqual([first, second].sort());
    expect(await message(first, missed.webhookId)).toMatchObject({ state: 'SENT' });
    expect(await message(second, missed.webhookId)).toMatchObject({ state: 'SENT' });
    const detail = await eventsCall(t, 'GET', `/${first}`);
    expect(detail.json()).toMatchObject({
      deliveries: [{ webhookId: missed.webhookId, state: 'SENT', attempts: [{ attempt: 1, outcome: 'SUCCEEDED' }] }],
    });
  });

  it('queues an endpoint registered later; webhookId queues even a type it does not subscribe to', async () => {
    const t = testApp();
    const first = await endpoint({ eventTypes: ['payment.captured'] });
    const eventId = await publishedEvent('policy.issued', first.partnerId);
    expect((await eventsCall(t, 'POST', `/${eventId}/redeliver`)).json()).toEqual({ count: 0 });
    const later = await endpoint();
    expect((await eventsCall(t, 'POST', `/${eventId}/redeliver`)).json()).toEqual({ count: 1 });
    const asked = await eventsCall(t, 'POST', `/${eventId}/redeliver`, { body: { webhookId: first.webhookId } });
    expect(asked.json()).toEqual({ count: 1 });
    await deliver();
    expect(receivedAt(later.path).map((r) => r.headers['webhook-id'])).toEqual([eventId]);
    expect(receivedAt(first.path).map((r) => r.headers['webhook-id'])).toEqual([eventId]);
    // Again without webhookId: both deliveries now exist, each queued once more.
    expect((await eventsCall(t, 'POST', `/${eventId}/redeliver`)).json()).toEqual({ count: 2 });
  });

  it('refuses webhookId of another partner (404), unknown (404) or disabled (409), one event and bulk', async () => {
    const t = testApp();
    const own = await endpoint();
    const eventId = await publishedEvent('payment.captured', own.partnerId);
    const ofB = await registerEndpoint(t, { url: `${receiver.url}/b` }, { partner: 'B' });
    const range = { from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' };
    for (const webhookId of [ofB.webhookId, 'whe_AAAAAAAAAAAAAAAAAAAAAA']) {
      const single = await eventsCall(t, 'POST', `/${eventId}/redeliver`, { body: { webhookId } });
      expect(single.statusCode, single.body).toBe(404);
      expect(single.json()).toMatchObject({ validation: { errors: [{ code: 'WEBHOOK_NOT_FOUND' }] } });
      const bulk = await eventsCall(t, 'POST', '/redeliver', { body: { ...range, webhookId } });
      expect(bulk.statusCode, bulk.body).toBe(404);
    }
    await setEnabled(own.webhookId, false);
    const disabled = await eventsCall(t, 'POST', `/${eventId}/redeliver`, { body: { webhookId: own.webhookId } });
    expect(disabled.statusCode, disabled.body).toBe(409);
    expect(disabled.json()).toMatchObject({ validation: { errors: [{ code: 'WEBHOOK_DISABLED' }] } });
    const bulk = await eventsCall(t, 'POST', '/redeliver', { body: { ...range, webhookId: own.webhookId } });
    expect(bulk.statusCode).toBe(409);
    // B's own endpoint is not queued by A's redelivery either.
    await setEnabled(own.webhookId, true);
    expect((await eventsCall(t, 'POST', `/${eventId}/redeliver`)).json()).toEqual({ count: 1 });
    expect(await message(eventId, ofB.webhookId)).toBeUndefined();
  });

  it('bulk: without failedOnly queues the events missed while disabled; failedOnly only FAILED deliveries', async () => {
    const t = testApp();
    const missed = await endpoint({ eventTypes: ['policy.cancelled'] });
    await setEnabled(missed.webhookId, false);
    const events = [
      await publishedEvent('policy.cancelled', missed.partnerId, 2),
      await publishedEvent('policy.cancelled', missed.partnerId, 2),
    ];
    const other = await publishedEvent('payment.refunded', missed.partnerId, 2);
    await setEnabled(missed.webhookId, true);
    const range = { from: '2020-01-02T00:00:00Z', to: '2020-01-03T00:00:00Z' };

    const failedOnly = await eventsCall(t, 'POST', '/redeliver', { body: { ...range, failedOnly: true } });
    expect(failedOnly.json()).toEqual({ count: 0 });
    const restricted = await eventsCall(t, 'POST', '/redeliver', { body: { ...range, webhookId: missed.webhookId } });
    expect(restricted.statusCode, restricted.body).toBe(202);
    expect(restricted.json()).toEqual({ count: 2 });
    const every = await eventsCall(t, 'POST', '/redeliver', { body: range });
    expect(every.json()).toEqual({ count: 2 });
    await deliver();
    expect(receivedAt(missed.path).map((r) => r.headers['webhook-id'])).toEqual(events);
    expect(await message(other, missed.webhookId)).toBeUndefined();
  });
});
