import { describe, expect, it } from 'vitest';
import type { EventWebhooks } from '../../src/events/model.js';
import { enqueue, findMessage, type NewOutboxMessage, type OutboxState } from '../../src/db/outbox/repository.js';
import { markFailed } from '../../src/db/outbox/repository-lease.js';
import type { Db } from '../../src/db/database.js';
import { WebhookNotFound } from '../../src/events/webhooks/errors.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { boughtPolicy, NOW } from '../policy-changes/support.js';
import { eventsCall, publishEvents, wholeFeed, type EventAnswer } from './support.js';

/** A stand-in of the webhooks area: one endpoint `whe_test` receives every event (outbox messages only). */
const ENDPOINT = 'whe_test';
const deliveryMessage = (event: { id: string }, webhookId: string, at: string): NewOutboxMessage => ({
  key: `webhook:${event.id}:${webhookId}`,
  kind: 'webhook-delivery',
  payload: { eventId: event.id, endpointId: webhookId },
  at,
});
const webhooks: EventWebhooks = {
  deliveryMessage,
  async deliveriesOf(db, eventId) {
    const message = await findMessage(db, `webhook:${eventId}:${ENDPOINT}`);
    return message ? [{ webhookId: ENDPOINT, state: message.state, attempts: [] }] : [];
  },
  async deliveryStatesOf(db, _scope, eventIds) {
    const states = new Map<string, Map<string, OutboxState>>();
    for (const eventId of eventIds) {
      const message = await findMessage(db, `webhook:${eventId}:${ENDPOINT}`);
      if (message) states.set(eventId, new Map([[ENDPOINT, message.state]]));
    }
    return states;
  },
  liveEndpointsFor: () => Promise.resolve([ENDPOINT]),
  assertLiveEndpoint(_db, _scope, webhookId) {
    return webhookId === ENDPOINT ? Promise.resolve() : Promise.reject(new WebhookNotFound(webhookId));
  },
};

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW, appOptions: { eventWebhooks: webhooks } });

/** Publishes with a fan-out that queues the stand-in endpoint's delivery. */
async function publish() {
  return publishEvents(getApp(), (tx, event, at) => enqueue(tx, deliveryMessage(event, ENDPOINT, at)));
}

/** The delivery's retries exhausted: FAILED. */
const failDelivery = async (db: Db, eventId: string) => {
  const message = await findMessage(db, `webhook:${eventId}:${ENDPOINT}`);
  await db
    .updateTable('outbox_message')
    .set({ lease_owner: 'test', attempts: 9 })
    .where('id', '=', message!.id)
    .execute();
  await markFailed(db, { id: message!.id, owner: 'test', at: NOW.toISOString(), error: 'HTTP_500' });
};

describe(`the event feed, one event, redelivery (${DIALECT})`, () => {
  it('pages in publication order with after and limit; unpublished events are not in it yet', async () => {
    const t = getApp();
    await boughtPolicy(t);
    expect(await publish()).toBe(2);
    const { policyNumber } = await boughtPolicy(t);
    const before = await wholeFeed(t);
    expect(before.some((e) => e.data.policyNumber === policyNumber)).toBe(false);
    await publish();
    const all = await wholeFeed(t);
    expect(all.slice(0, before.length)).toEqual(before);
    expect(all.slice(before.length).map((e) => e.type)).toEqual(['policy.issued', 'payment.captured']);
    expect(await wholeFeed(t, { limit: 1 })).toEqual(all);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);

    const page = await eventsCall(t, 'GET', `?after=${all[0]!.id}&limit=2`);
    expect(page.json()).toEqual({ events: all.slice(1, 3), hasMore: all.length > 3 });
    const last = await eventsCall(t, 'GET', `?after=${all.at(-1)!.id}`);
    expect(last.json()).toEqual({ events: [], hasMore: false });
  });

  it('refuses a bad page: unknown after (404 EVENT_NOT_FOUND), limit out of bounds (400)', async () => {
    const t = getApp();
    const unknown = await eventsCall(t, 'GET', '?after=evt_AAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      validation: { errors: [{ code: 'EVENT_NOT_FOUND', property: 'after' }] },
    });
    expect((await eventsCall(t, 'GET', '?limit=1001')).statusCode).toBe(400);
    expect((await eventsCall(t, 'GET', '?limit=0')).statusCode).toBe(400);
    expect((await eventsCall(t, 'GET', '?after=nope')).statusCode).toBe(400);
  });

  it('one event: the envelope the feed shows and its deliveries; another partner or brand gets 404', async () => {
    const t = getApp();
    await boughtPolicy(t);
    await publish();
    const event = (await wholeFeed(t)).at(-1)!;
    const res = await eventsCall(t, 'GET', `/${event.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...event, deliveries: [{ webhookId: ENDPOINT, state: 'PENDING', attempts: [] }] });

    const other = await eventsCall(t, 'GET', `/${event.id}`, { partner: 'B' });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ validation: { errors: [{ code: 'EVENT_NOT_FOUND' }] } });
    expect((await eventsCall(t, 'GET', `/${event.id}`, { brand: 'brandnz' })).statusCode).toBe(404);
    expect((await eventsCall(t, 'GET', `?after=${event.id}`, { partner: 'B' })).statusCode).toBe(404);
    expect((await eventsCall(t, 'POST', `/${event.id}/redeliver`, { partner: 'B' })).statusCode).toBe(404);
    const feedOfB = await wholeFeed(t, { partner: 'B' });
    expect(feedOfB.filter((e: EventAnswer) => e.id === event.id)).toEqual([]);
  });

  it('redelivers one event: its failed delivery is PENDING again from attempt 1, same key', async () => {
    const t = getApp();
    await boughtPolicy(t);
    await publish();
    const event = (await wholeFeed(t)).at(-1)!;
    await failDelivery(t.context.db, event.id);
    expect((await findMessage(t.context.db, `webhook:${event.id}:${ENDPOINT}`))?.state).toBe('FAILED');

    const res = await eventsCall(t, 'POST', `/${event.id}/redeliver`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ count: 1 });
    expect(await findMessage(t.context.db, `webhook:${event.id}:${ENDPOINT}`)).toMatchObject({
      state: 'PENDING',
      attempts: 0,
    });
    const wrong = await eventsCall(t, 'POST', `/${event.id}/redeliver`, { body: { webhookId: 'whe_other' } });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ validation: { errors: [{ code: 'WEBHOOK_NOT_FOUND' }] } });
  });

  it('redelivers a time range, failed deliveries only when asked; refuses a reversed range', async () => {
    const t = getApp();
    await boughtPolicy(t);
    await publish();
    const all = await wholeFeed(t);
    const [failed] = all.slice(-1);
    await failDelivery(t.context.db, failed!.id);
    const range = { from: '2026-11-21T00:00:00Z', to: '2026-11-23T00:00:00Z' };

    const onlyFailed = await eventsCall(t, 'POST', '/redeliver', { body: { ...range, failedOnly: true } });
    expect(onlyFailed.statusCode, onlyFailed.body).toBe(202);
    expect(onlyFailed.json()).toEqual({ count: 1 });
    expect((await findMessage(t.context.db, `webhook:${failed!.id}:${ENDPOINT}`))?.state).toBe('PENDING');

    const every = await eventsCall(t, 'POST', '/redeliver', { body: { ...range, webhookId: ENDPOINT } });
    expect(every.json()).toEqual({ count: all.length });
    const none = await eventsCall(t, 'POST', '/redeliver', { body: { from: range.to, to: '2026-11-24T00:00:00Z' } });
    expect(none.json()).toEqual({ count: 0 });
    const reversed = await eventsCall(t, 'POST', '/redeliver', { body: { from: range.to, to: range.from } });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({ validation: { errors: [{ code: 'INVALID_TIME_RANGE' }] } });
    // Another partner's range holds none of these.
    const ofB = await eventsCall(t, 'POST', '/redeliver', { partner: 'B', body: range });
    expect(ofB.json()).toEqual({ count: 0 });
  });
});
