import { describe, expect, it } from 'vitest';
import type { EventType } from '../../src/events/model.js';
import { recordEvent } from '../../src/events/repository.js';
import { enqueueDeliveries } from '../../src/events/webhooks/fan-out.js';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { eventsCall, publishEvents } from '../events/support.js';
import { registerEndpoint, webhooksPath } from './support.js';

/**
 * Test events and redeliveries each have a budget per partner and UTC hour (docs/api-contract.md,
 * "Webhooks" and "Redelivery"): past it 429 with `Retry-After` and the RateLimit headers, and
 * nothing recorded or queued. The clock is 10:30 UTC: the hour's window ends in 1800 s.
 */
const HALF_PAST = new Date('2026-11-27T10:30:00.000Z');
/** No receiver: nothing here is delivered (the worker never runs), only queued. */
const URL = 'http://127.0.0.1:9/hooks';

const expect429 = (
  answer: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
  name: string,
  quota: number,
) => {
  expect(answer.statusCode).toBe(429);
  expect(answer.json()).toMatchObject({ validation: { isValid: false, errors: [{ code: 'RATE_LIMITED' }] } });
  expect(answer.headers['retry-after']).toBe('1800');
  expect(answer.headers['ratelimit-policy']).toBe(`"${name}";q=${quota};w=3600`);
  expect(answer.headers.ratelimit).toBe(`"${name}";r=0;t=1800`);
};

const testEvent = async (t: TestApp, webhookId: string, partner: 'A' | 'B' = 'A') =>
  t.app.inject({
    method: 'POST',
    url: `${webhooksPath()}/${webhookId}/test`,
    headers: await bearerFor(t, 'brandau', partner),
  });

/** Rows of one kind of thing, to see that a refusal recorded nothing. */
const countOf = async (t: TestApp, table: 'partner_event' | 'outbox_message') =>
  (
    await t.context.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe(`the test events' budget per partner (${DIALECT})`, () => {
  const getApp = useTestApp({ env: { WEBHOOK_TEST_EVENTS_PER_PARTNER_PER_HOUR: '3' }, clock: () => HALF_PAST });

  it('10 at once: exactly 3 recorded, the others 429 with nothing recorded; another partner has its own', async () => {
    const t = getApp();
    const { webhookId } = await registerEndpoint(t, { url: URL });
    const answers = await Promise.all(Array.from({ length: 10 }, () => testEvent(t, webhookId)));
    expect(answers.filter((a) => a.statusCode === 202)).toHaveLength(3);
    const refused = answers.filter((a) => a.statusCode !== 202);
    expect(refused).toHaveLength(7);
    for (const answer of refused) expect429(answer, 'webhook-tests', 3);
    expect(await countOf(t, 'partner_event')).toBe(3);
    expect(await countOf(t, 'outbox_message')).toBe(3);

    const ofB = await registerEndpoint(t, { url: URL }, { partner: 'B' });
    expect((await testEvent(t, ofB.webhookId, 'B')).statusCode).toBe(202);
    expect(await countOf(t, 'partner_event')).toBe(4);
  });
});

describe(`the redeliveries' budget per partner, and the size of one redelivery (${DIALECT})`, () => {
  const getApp = useTestApp({ env: { WEBHOOK_REDELIVERIES_PER_PARTNER_PER_HOUR: '5' }, clock: () => HALF_PAST });
  let second = 0;

  /** Records and publishes an event of partner A on 2020-01-`day` (fanned out to A's endpoints). */
  async function publishedEvent(t: TestApp, partnerId: number, day: number, type: EventType = 'payment.captured') {
    const at = new Date(Date.UTC(2020, 0, day, 0, 0, ++second)).toISOString();
    const eventId = await t.context.db
      .transaction()
      .execute((tx) =>
        recordEvent(tx, { type, sourceKey: `${type}:${Math.random()}`, partnerId, brandCode: 'brandau', at, data: {} }),
      );
    return eventId!;
  }

  async function partnerIdOf(t: TestApp, webhookId: string) {
    const row = await t.context.db
      .selectFrom('webhook_endpoint')
      .select('partner_id')
      .where('public_id', '=', webhookId)
      .executeTakeFirstOrThrow();
    return row.partner_id;
  }

  /** The state and attempts of every delivery message, to see that a refusal changed none. */
  const deliveries = async (t: TestApp) =>
    t.context.db
      .selectFrom('outbox_message')
      .select(['message_key', 'state', 'attempts', 'updated_at'])
      .where('kind', '=', 'webhook-delivery')
      .orderBy('message_key')
      .execute();

  it('counts the deliveries queued: past what is left of the hour, 429 and nothing queued again', async () => {
    const t = getApp();
    const endpoints = [
      await registerEndpoint(t, { url: `${URL}/1` }),
      await registerEndpoint(t, { url: `${URL}/2` }),
      await registerEndpoint(t, { url: `${URL}/3` }),
    ];
    const partnerId = await partnerIdOf(t, endpoints[0]!.webhookId);
    const first = await publishedEvent(t, partnerId, 1);
    await publishedEvent(t, partnerId, 1);
    await publishEvents(t, (tx, event, now) => enqueueDeliveries(tx, event, now));
    // SENT long ago, as if delivered: a redelivery makes them PENDING again.
    await t.context.db
      .updateTable('outbox_message')
      .set({ state: 'SENT', attempts: 1, updated_at: '2020-01-02T00:00:00.000Z' })
      .where('kind', '=', 'webhook-delivery')
      .execute();
    const before = await deliveries(t);
    expect(before).toHaveLength(6);

    // One event to its three endpoints: 3 of 5.
    const one = await eventsCall(t, 'POST', `/${first}/redeliver`);
    expect(one.statusCode, one.body).toBe(202);
    expect(one.json()).toEqual({ count: 3 });
    const afterOne = await deliveries(t);
    // The range's six do not fit in the two left: none is queued again.
    const range = await eventsCall(t, 'POST', '/redeliver', {
      body: { from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' },
    });
    expect429(range, 'redeliveries', 5);
    expect(await deliveries(t)).toEqual(afterOne);
    // Two single deliveries fit; a third does not.
    for (const endpoint of endpoints.slice(0, 2)) {
      const single = await eventsCall(t, 'POST', `/${first}/redeliver`, { body: { webhookId: endpoint.webhookId } });
      expect(single.statusCode, single.body).toBe(202);
    }
    expect429(
      await eventsCall(t, 'POST', `/${first}/redeliver`, { body: { webhookId: endpoints[2]!.webhookId } }),
      'redeliveries',
      5,
    );
    // Another partner's budget is its own.
    const ofB = await registerEndpoint(t, { url: URL }, { partner: 'B' });
    const eventOfB = await publishedEvent(t, await partnerIdOf(t, ofB.webhookId), 1);
    await publishEvents(t, (tx, event, now) => enqueueDeliveries(tx, event, now));
    expect((await eventsCall(t, 'POST', `/${eventOfB}/redeliver`, { partner: 'B' })).json()).toEqual({ count: 1 });
  });

  it('refuses a range of more than 1000 events or 1000 deliveries (400), queueing nothing', async () => {
    const t = getApp();
    const { webhookId } = await registerEndpoint(t, { url: URL });
    const partnerId = await partnerIdOf(t, webhookId);
    // 1001 published events on 2020-01-10, written as the feed holds them.
    const rows = Array.from({ length: 1001 }, (_, i) => ({
      event_id: `evt_budget${String(i).padStart(16, '0')}`,
      source_key: `budget:${i}`,
      partner_id: partnerId,
      brand_code: 'brandau',
      type: 'payment.captured',
      occurred_at: new Date(Date.UTC(2020, 0, 10, 0, 0, 0, i)).toISOString(),
      data_json: '{}',
      feed_position: 100_000 + i,
      published_at: HALF_PAST.toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 100)
      await t.context.db
        .insertInto('partner_event')
        .values(rows.slice(i, i + 100))
        .execute();
    const queued = await countOf(t, 'outbox_message');
    const tooMany = await eventsCall(t, 'POST', '/redeliver', {
      body: { from: '2020-01-10T00:00:00Z', to: '2020-01-11T00:00:00Z' },
    });
    expect(tooMany.statusCode, tooMany.body).toBe(400);
    expect(tooMany.json()).toMatchObject({ validation: { errors: [{ code: 'REDELIVERY_RANGE_TOO_LARGE' }] } });
    // 1000 events fit, but to two endpoints they are 2000 deliveries.
    await registerEndpoint(t, { url: `${URL}/second` });
    const tooWide = await eventsCall(t, 'POST', '/redeliver', {
      body: { from: '2020-01-10T00:00:00Z', to: '2020-01-10T00:00:01Z' },
    });
    expect(tooWide.statusCode, tooWide.body).toBe(400);
    expect(tooWide.json()).toMatchObject({ validation: { errors: [{ code: 'REDELIVERY_RANGE_TOO_LARGE' }] } });
    expect(await countOf(t, 'outbox_message')).toBe(queued);
  });
});
