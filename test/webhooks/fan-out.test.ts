import { describe, expect, it } from 'vitest';
import type { EventType } from '../../src/events/model.js';
import { findEvent, recordEvent } from '../../src/events/repository.js';
import { findMessage } from '../../src/db/outbox/repository.js';
import { enqueueDeliveries } from '../../src/events/webhooks/fan-out.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { registerEndpoint, startWebhookReceiver, webhookWorker, webhooksPath } from './support.js';

const URL = 'http://127.0.0.1:9/hooks';

describe(`webhook fan-out (${DIALECT})`, () => {
  const testApp = useTestApp();

  async function record(type: EventType, partnerId: number, brandCode = 'brandau') {
    const t = testApp();
    const at = t.context.clock().toISOString();
    return t.context.db.transaction().execute(async (tx) => {
      const eventId = await recordEvent(tx, {
        type,
        sourceKey: `${type}:${Math.random()}`,
        partnerId,
        brandCode,
        at,
        data: { note: 'test' },
      });
      const event = await findEvent(tx, eventId!);
      return { eventId: eventId!, queued: await enqueueDeliveries(tx, event!, at) };
    });
  }

  it('queues one delivery per enabled endpoint of the partner and brand subscribed to the type', async () => {
    const t = testApp();
    const every = await registerEndpoint(t, { url: URL });
    const issued = await registerEndpoint(t, { url: URL, eventTypes: ['policy.issued'] });
    const payments = await registerEndpoint(t, { url: URL, eventTypes: ['payment.captured'] });
    const disabled = await registerEndpoint(t, { url: URL, enabled: false });
    const deleted = await registerEndpoint(t, { url: URL });
    await t.app.inject({
      method: 'DELETE',
      url: `${webhooksPath()}/${deleted.webhookId}`,
      headers: await bearerFor(t, 'brandau'),
    });
    const otherPartner = await registerEndpoint(t, { url: URL }, { partner: 'B' });
    const partnerA = await t.context.db
      .selectFrom('webhook_endpoint')
      .select('partner_id')
      .where('public_id', '=', every.webhookId)
      .executeTakeFirstOrThrow();

    const { eventId, queued } = await record('policy.issued', partnerA.partner_id);
    expect(queued.sort()).toEqual([every.webhookId, issued.webhookId].sort());
    for (const id of [payments, disabled, deleted, otherPartner].map((e) => e.webhookId))
      expect(await findMessage(t.context.db, `webhook:${eventId}:${id}`)).toBeUndefined();
    expect(await findMessage(t.context.db, `webhook:${eventId}:${every.webhookId}`)).toMatchObject({
      kind: 'webhook-delivery',
      payload: { eventId, endpointId: every.webhookId },
    });
    // Another brand of the same partner: none.
    expect((await record('policy.issued', partnerA.partner_id, 'brandnz')).queued).toEqual([]);
    // Fanning out again queues nothing new (same keys).
    await t.context.db.transaction().execute(async (tx) => {
      const event = await findEvent(tx, eventId);
      await enqueueDeliveries(tx, event!, t.context.clock().toISOString());
    });
    const keys = await t.context.db
      .selectFrom('outbox_message')
      .select('message_key')
      .where('message_key', 'like', `webhook:${eventId}:%`)
      .execute();
    expect(keys).toHaveLength(2);
  });

  it('fails a queued delivery at once when its endpoint was disabled meanwhile, sending nothing', async () => {
    const t = testApp();
    const receiver = await startWebhookReceiver();
    try {
      const endpoint = await registerEndpoint(t, { url: receiver.url, eventTypes: ['payment.captured'] });
      const row = await t.context.db
        .selectFrom('webhook_endpoint')
        .select('partner_id')
        .where('public_id', '=', endpoint.webhookId)
        .executeTakeFirstOrThrow();
      const { eventId } = await record('payment.captured', row.partner_id);
      await t.app.inject({
        method: 'PATCH',
        url: `${webhooksPath()}/${endpoint.webhookId}`,
        headers: await bearerFor(t, 'brandau'),
        payload: { enabled: false },
      });
      const worker = webhookWorker(t);
      await worker.runOnce();
      await worker.stop();
      expect(receiver.received).toHaveLength(0);
      expect(await findMessage(t.context.db, `webhook:${eventId}:${endpoint.webhookId}`)).toMatchObject({
        state: 'FAILED',
        attempts: 1,
        lastError: 'EndpointDisabled ENDPOINT_DISABLED',
      });
    } finally {
      await receiver.close();
    }
  });
});
