import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';
import { startChildServer, type ChildServer } from '../helpers/child-server.js';
import { DIALECT, type TestDatabase } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';
import { until } from '../helpers/polling.js';
import { scaled } from '../helpers/time-scale.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { PartnerClient } from '../purchases/http-client.js';

/**
 * Issue 35, item 4: a receiver that never answers must not hold a stopping server. On SIGTERM the
 * workers stop leasing; a POST still under way after OUTBOX_STOP_GRACE_MS is aborted and its
 * message given back, so the process exits within the drain, the grace and about a second more,
 * and the message is delivered after the restart (at least once).
 */
const GRACE_MS = 500;
const ENV = {
  DEMO_DATA: 'true',
  OUTBOX_INTERVAL_MS: '100',
  SHUTDOWN_DRAIN_MS: '0',
  // Far beyond the bound below: the old stop waited for the POST's own timeout.
  WEBHOOK_TIMEOUT_MS: '30000',
  OUTBOX_LEASE_SECONDS: '120',
  SHUTDOWN_TIMEOUT_MS: '60000',
  OUTBOX_STOP_GRACE_MS: String(GRACE_MS),
};
/** Drain (0) + grace + ABORT_SETTLE_MS + the listener's quiet period and closing: on this machine's scale. */
const EXIT_BOUND_MS = scaled(GRACE_MS + 1500);

describe(`shutdown with a webhook receiver that never answers (${DIALECT})`, () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  const servers: ChildServer[] = [];
  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    servers.forEach((s) => s.kill());
    await Promise.all(servers.map((s) => s.exited));
    await receiver.close();
    await database.destroy();
  });

  it(
    'exits promptly on SIGTERM, and the message is delivered after the restart',
    async () => {
      // Never answered (until the receiver is closed).
      receiver.answer(() => ({ status: 204, delayMs: 3_600_000 }));
      const first = await startChildServer({ ...database.env, ...ENV });
      servers.push(first);
      const client = new PartnerClient(first.url);
      const created = await client.call('POST', '/partners/v1/brandau/webhooks', { url: receiver.url });
      expect(created.status).toBe(201);
      await client.purchase(await client.readyQuote(), CARDS.approved);
      await until(() => receiver.received.length > 0, 'a POST under way', scaled(20_000));
      const hanging = new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));

      const signalled = performance.now();
      first.process.kill('SIGTERM');
      const exit = await Promise.race([
        first.exited,
        new Promise<string>((resolve) => setTimeout(() => resolve('still running'), EXIT_BOUND_MS)),
      ]);
      expect(exit).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(EXIT_BOUND_MS);

      // The restart delivers what the stop gave back, at once (the lease was released, not left to expire).
      receiver.answer(() => ({ status: 204 }));
      const before = receiver.received.length;
      servers.push(await startChildServer({ ...database.env, ...ENV }));
      const redelivered = () => new Set(receiver.received.slice(before).map((r) => String(r.headers['webhook-id'])));
      await until(() => [...hanging].every((id) => redelivered().has(id)), 'the interrupted delivery', scaled(10_000));
      await until(
        async () =>
          (
            await database.db
              .selectFrom('outbox_message')
              .select('id')
              .where('kind', '=', 'webhook-delivery')
              .where('state', '!=', 'SENT')
              .execute()
          ).length === 0,
        'every delivery sent',
        scaled(10_000),
      );
    },
    scaled(90_000),
  );
});
