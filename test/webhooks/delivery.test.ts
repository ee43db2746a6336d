import { describe, expect, it } from 'vitest';
import { findMessage } from '../../src/db/outbox/repository.js';
import { attemptsOfEvent } from '../../src/events/webhooks/repository-attempts.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import {
  attemptsOf,
  registerEndpoint,
  shiftableClock,
  useWebhookReceiver,
  verifyWebhook,
  webhookWorker,
  webhooksPath,
} from './support.js';

/** Short, so a slow receiver is given up on soon; of the machine's scale, so a busy one's prompt answers are not. */
const TIMEOUT_MS = scaled(500);
/**
 * The retry schedule is 1, 2, 3 and 4 of these steps (seconds): longer than the rest of a worker's
 * pass takes on this machine, so a pass never finds its own failure due again.
 */
const RETRY_STEP_S = Math.ceil(scaled(2_000) / 1000);
const RETRY_DELAYS = [1, 2, 3, 4].map((steps) => steps * RETRY_STEP_S);

describe(`webhook delivery to a real receiver (${DIALECT})`, () => {
  const time = shiftableClock();
  const testApp = useTestApp({
    clock: time.clock,
    env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_DELAYS: RETRY_DELAYS.map((s) => `${s}s`).join(',') },
  });
  const receiver = useWebhookReceiver();

  let paths = 0;
  /** What the receiver got on one endpoint's path (each test registers its own). */
  const receivedAt = (path: string) => receiver().received.filter((r) => r.path === `/hooks${path}`);

  /** Registers an endpoint on the receiver, sends a test event through `runs` worker passes; answers what it needs. */
  async function testEventTo(path = `/${++paths}`, runs = 1) {
    const t = testApp();
    const endpoint = await registerEndpoint(t, { url: `${receiver().url}${path}` });
    const sent = await t.app.inject({
      method: 'POST',
      url: `${webhooksPath()}/${endpoint.webhookId}/test`,
      headers: await bearerFor(t, 'brandau'),
    });
    expect(sent.statusCode).toBe(202);
    const { eventId } = sent.json<{ eventId: string }>();
    const worker = webhookWorker(t);
    for (let i = 0; i < runs; i++) await worker.runOnce();
    await worker.stop();
    return { ...endpoint, eventId, deliveries: receivedAt(path) };
  }

  const message = (eventId: string, webhookId: string) =>
    findMessage(testApp().context.db, `webhook:${eventId}:${webhookId}`);

  it('delivers a test event, signed per Standard Webhooks, to its endpoint only', async () => {
    receiver().answer(() => ({ status: 200, body: 'thanks' }));
    const t = testApp();
    const bystander = await registerEndpoint(t, { url: `${receiver().url}/bystander` });
    const { eventId, secret, webhookId, deliveries } = await testEventTo();
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(verifyWebhook(secret, delivery!)).toMatchObject({
      id: eventId,
      type: 'webhook.test',
      data: { webhookId },
    });
    expect(delivery!.headers['webhook-id']).toBe(eventId);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['user-agent']).toMatch(/^PartnerAPI-Webhooks\//);
    expect(() => verifyWebhook(bystander.secret, delivery!)).toThrow();
    expect(await message(eventId, bystander.webhookId)).toBeUndefined();
    expect((await message(eventId, webhookId))?.state).toBe('SENT');
    const [attempt] = await attemptsOf(t, eventId);
    expect(attempt).toMatchObject({
      attempt: 1,
      outcome: 'SUCCEEDED',
      status_code: 200,
      error: null,
      response_excerpt: 'thanks',
    });
    expect(await attemptsOfEvent(t.context.db, eventId)).toMatchObject([
      { webhookId, state: 'SENT', attempts: [{ attempt: 1, outcome: 'SUCCEEDED', statusCode: 200 }] },
    ]);
  });

  it('retries a 500 with the same webhook-id, recording every attempt, and heals the endpoint', async () => {
    let calls = 0;
    receiver().answer(() => (calls++ === 0 ? { status: 500, body: 'boom' } : { status: 200 }));
    const t = testApp();
    const { eventId, secret, webhookId, deliveries } = await testEventTo('/flaky');
    expect(deliveries).toHaveLength(1);
    expect((await message(eventId, webhookId))?.state).toBe('PENDING');
    const failing = await t.app.inject({
      method: 'GET',
      url: `${webhooksPath()}/${webhookId}`,
      headers: await bearerFor(t, 'brandau'),
    });
    expect(failing.json().failingSince).toBeDefined();
    time.advance((RETRY_DELAYS[0]! + 4) * 1000);
    const worker = webhookWorker(t);
    await worker.runOnce();
    await worker.stop();
    const both = receivedAt('/flaky');
    expect(both.map((d) => d.headers['webhook-id'])).toEqual([eventId, eventId]);
    for (const d of both) expect(verifyWebhook(secret, d)).toMatchObject({ id: eventId });
    expect(await attemptsOf(t, eventId)).toMatchObject([
      { attempt: 1, outcome: 'FAILED', status_code: 500, error: 'HTTP_500', response_excerpt: 'boom' },
      { attempt: 2, outcome: 'SUCCEEDED', status_code: 200, error: null },
    ]);
    expect((await message(eventId, webhookId))?.state).toBe('SENT');
    const endpoint = await t.app.inject({
      method: 'GET',
      url: `${webhooksPath()}/${webhookId}`,
      headers: await bearerFor(t, 'brandau'),
    });
    expect(endpoint.json()).not.toHaveProperty('failingSince');
  });

  it('retries on WEBHOOK_RETRY_DELAYS, then fails the delivery after delays + 1 attempts', async () => {
    receiver().answer(() => ({ status: 502 }));
    const t = testApp();
    const { eventId, webhookId, deliveries } = await testEventTo('/schedule');
    expect(deliveries).toHaveLength(1);
    const due = async () =>
      await t.context.db
        .selectFrom('outbox_message')
        .select(['next_attempt_at', 'updated_at', 'state', 'attempts'])
        .where('message_key', '=', `webhook:${eventId}:${webhookId}`)
        .executeTakeFirstOrThrow();
    const worker = webhookWorker(t);
    for (const delaySeconds of RETRY_DELAYS) {
      const row = await due();
      expect(row.state).toBe('PENDING');
      expect(Date.parse(row.next_attempt_at) - Date.parse(row.updated_at)).toBe(delaySeconds * 1000);
      await worker.runOnce(); // not due yet
      expect((await due()).attempts).toBe(row.attempts);
      time.advance(delaySeconds * 1000);
      await worker.runOnce();
    }
    await worker.stop();
    expect(await due()).toMatchObject({ state: 'FAILED', attempts: 5 });
    expect(receivedAt('/schedule')).toHaveLength(5);
    expect(new Set(receivedAt('/schedule').map((d) => d.headers['webhook-id']))).toEqual(new Set([eventId]));
  });

  it('disables the endpoint on 410 Gone, with the reason visible, and delivers nothing more', async () => {
    receiver().answer(() => ({ status: 410 }));
    const t = testApp();
    const { eventId, webhookId, deliveries } = await testEventTo();
    expect(deliveries).toHaveLength(1);
    expect(await message(eventId, webhookId)).toMatchObject({ state: 'FAILED', attempts: 1 });
    const endpoint = await t.app.inject({
      method: 'GET',
      url: `${webhooksPath()}/${webhookId}`,
      headers: await bearerFor(t, 'brandau'),
    });
    expect(endpoint.json()).toMatchObject({ enabled: false, disabledReason: 'GONE' });
    expect(endpoint.json().disabledAt).toBeDefined();
    const again = await t.app.inject({
      method: 'POST',
      url: `${webhooksPath()}/${webhookId}/test`,
      headers: await bearerFor(t, 'brandau'),
    });
    expect(again.statusCode).toBe(409);
  });

  it('signs with both secrets during the rotation overlap, then with the new one only', async () => {
    receiver().answer(() => ({ status: 204 }));
    const t = testApp();
    const headers = await bearerFor(t, 'brandau');
    const { webhookId, secret: oldSecret } = await registerEndpoint(t, { url: `${receiver().url}/rotation` });
    const rotated = await t.app.inject({
      method: 'POST',
      url: `${webhooksPath()}/${webhookId}/rotate-secret`,
      headers,
      payload: { overlapSeconds: 60 },
    });
    const newSecret = rotated.json<{ secret: string }>().secret;
    const deliverTest = async () => {
      const first = receivedAt('/rotation').length;
      await t.app.inject({ method: 'POST', url: `${webhooksPath()}/${webhookId}/test`, headers });
      const worker = webhookWorker(t);
      await worker.runOnce();
      await worker.stop();
      expect(receivedAt('/rotation')).toHaveLength(first + 1);
      return receivedAt('/rotation')[first]!;
    };
    const during = await deliverTest();
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    expect(verifyWebhook(newSecret, during)).toBeDefined();
    expect(verifyWebhook(oldSecret, during)).toBeDefined();

    time.advance(61_000); // past the overlap, well inside the receivers' ±5 minutes
    const after = await deliverTest();
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyWebhook(newSecret, after)).toBeDefined();
    expect(() => verifyWebhook(oldSecret, after)).toThrow(/signature/i);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    receiver().answer((_n, r) =>
      r.headers['x-followed'] ? { status: 200 } : { status: 302, headers: { location: `${receiver().url}/elsewhere` } },
    );
    const t = testApp();
    const { eventId, deliveries } = await testEventTo('/redirecting');
    expect(deliveries).toHaveLength(1);
    const [attempt] = await attemptsOf(t, eventId);
    expect(attempt).toMatchObject({ outcome: 'FAILED', status_code: 302, error: 'REDIRECT_302' });
  });

  it(
    'gives up on a slow receiver after WEBHOOK_TIMEOUT_MS and records a timeout',
    async () => {
      // Answers long after WEBHOOK_TIMEOUT_MS: the worker is done well before, however busy the machine.
      const answersAfterMs = scaled(5_000);
      receiver().answer(() => ({ status: 200, delayMs: answersAfterMs }));
      const t = testApp();
      const endpoint = await registerEndpoint(t, { url: `${receiver().url}/slow` });
      await t.app.inject({
        method: 'POST',
        url: `${webhooksPath()}/${endpoint.webhookId}/test`,
        headers: await bearerFor(t, 'brandau'),
      });
      const worker = webhookWorker(t);
      const started = Date.now();
      await worker.runOnce();
      await worker.stop();
      expect(Date.now() - started).toBeLessThan(answersAfterMs);
      const attempts = await t.context.db
        .selectFrom('webhook_delivery_attempt')
        .selectAll()
        .where('endpoint_public_id', '=', endpoint.webhookId)
        .execute();
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ outcome: 'FAILED', status_code: null, error: 'TIMEOUT' });
      expect(attempts[0]!.latency_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(attempts[0]!.latency_ms).toBeLessThan(answersAfterMs);
    },
    scaled(60_000),
  );

  it('reads at most 1 KiB of the answer', async () => {
    receiver().answer(() => ({ status: 200, body: 'x'.repeat(1024 * 1024) }));
    const t = testApp();
    const { eventId } = await testEventTo();
    const [attempt] = await attemptsOf(t, eventId);
    expect(attempt).toMatchObject({ outcome: 'SUCCEEDED', status_code: 200 });
    expect(attempt!.response_excerpt).toHaveLength(1024);
  });

  it('keeps an answer with control characters (NUL, which PostgreSQL text refuses) as U+FFFD: delivered once, recorded', async () => {
    receiver().answer(() => ({ status: 200, body: 'ok\u0000done\u0007' }));
    const t = testApp();
    const before = receiver().received.length;
    const { eventId } = await testEventTo();
    const [attempt, ...more] = await attemptsOf(t, eventId);
    expect(more).toEqual([]);
    expect(attempt).toMatchObject({ outcome: 'SUCCEEDED', status_code: 200, response_excerpt: 'ok\ufffddone\ufffd' });
    expect(receiver().received.length - before).toBe(1);
  });

  it('keeps a card number the receiver echoes out of the attempt it records', async () => {
    receiver().answer(() => ({ status: 200, body: 'charged card 4000 0566 5566 5556, thanks' }));
    const t = testApp();
    const { eventId } = await testEventTo();
    const [attempt] = await attemptsOf(t, eventId);
    expect(attempt).toMatchObject({
      outcome: 'SUCCEEDED',
      response_excerpt: 'charged card [CARD NUMBER REDACTED], thanks',
    });
  });

  it('disables an endpoint failing for longer than WEBHOOK_DISABLE_AFTER_DAYS', async () => {
    receiver().answer(() => ({ status: 503 }));
    const t = testApp();
    const { eventId, webhookId } = await testEventTo('', 0);
    const worker = webhookWorker(t);
    await worker.runOnce();
    expect(await message(eventId, webhookId)).toMatchObject({ state: 'PENDING', attempts: 1 });
    // Failing since long ago (as if days of failed deliveries).
    await t.context.db
      .updateTable('webhook_endpoint')
      .set({ failing_since: '2026-01-01T00:00:00.000Z' })
      .where('public_id', '=', webhookId)
      .execute();
    time.advance((RETRY_DELAYS[0]! + 4) * 1000);
    await worker.runOnce();
    await worker.stop();
    expect(await message(eventId, webhookId)).toMatchObject({ state: 'FAILED', attempts: 2 });
    const row = await t.context.db
      .selectFrom('webhook_endpoint')
      .select(['enabled', 'disabled_reason'])
      .where('public_id', '=', webhookId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: 0, disabled_reason: 'FAILING' });
  });
});
