import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';
import { startChildServer, type ChildServer } from '../helpers/child-server.js';
import { DIALECT, type TestDatabase } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';
import { until } from '../helpers/polling.js';
import { startSmtpServer, type Received } from '../helpers/smtp-server.js';
import { scaled } from '../helpers/time-scale.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { PartnerClient } from '../purchases/http-client.js';

/**
 * Hardening II, item 1: "A partner with 20 endpoints that answer after the timeout and a flood of
 * test events and redeliveries does not delay another partner's purchase e-mail and webhook by
 * more than 5 s." A real server process with its delivery worker, a real SMTP server and real
 * receivers; partner DEMOA floods, partner DEMOB buys.
 */

/** An attempt's timeout: long enough that A's backlog would hold B's messages up for minutes on one shared queue. */
const TIMEOUT_MS = scaled(2_000);
/** How late B's e-mail and webhook may arrive after B's purchase was answered (the 5 s). */
const FAIR_DELAY_MS = scaled(5_000);
const ENDPOINTS = 20;
const TEST_EVENTS = 80;
const REDELIVERIES = 5;

describe(`one partner's slow endpoints do not delay another partner's deliveries (${DIALECT})`, () => {
  const world = {
    database: undefined as unknown as TestDatabase,
    smtp: undefined as unknown as Awaited<ReturnType<typeof startSmtpServer>>,
    slow: undefined as unknown as WebhookReceiver,
    prompt: undefined as unknown as WebhookReceiver,
    server: undefined as unknown as ChildServer,
  };

  beforeAll(async () => {
    world.database = await createMigratedTestDatabase();
    world.smtp = await startSmtpServer();
    world.slow = await startWebhookReceiver('/a');
    // Partner A's endpoints answer, but only after the attempt has timed out.
    world.slow.answer(() => ({ status: 204, delayMs: TIMEOUT_MS + scaled(1_000) }));
    world.prompt = await startWebhookReceiver('/b');
    world.server = await startChildServer({
      ...world.database.env,
      DEMO_DATA: 'true',
      SMTP_URL: world.smtp.url,
      OUTBOX_INTERVAL_MS: '100',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    });
  }, scaled(60_000));

  afterAll(async () => {
    world.server.kill();
    await world.server.exited;
    await world.slow.close();
    await world.prompt.close();
    await world.smtp.close();
    await world.database.destroy();
  });

  it(
    "B's purchase e-mail and policy.issued arrive within 5 s while A floods its slow endpoints",
    async () => {
      const a = new PartnerClient(world.server.url, 'brandau', 'DEMOA');
      const b = new PartnerClient(world.server.url, 'brandau', 'DEMOB');
      const from = new Date(Date.now() - 60_000).toISOString();
      const endpoints: string[] = [];
      for (let i = 0; i < ENDPOINTS; i++) {
        const created = await a.call('POST', '/partners/v1/brandau/webhooks', { url: `${world.slow.url}/${i}` });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        endpoints.push(created.body.webhookId as string);
      }
      const own = await b.call('POST', '/partners/v1/brandau/webhooks', {
        url: world.prompt.url,
        eventTypes: ['policy.issued'],
      });
      expect(own.status, JSON.stringify(own.body)).toBe(201);

      // The flood: test events to every endpoint, then redeliveries of everything so far. Past a
      // budget the answer is 429 (nothing queued); either way A's slow endpoints have work queued.
      const tests = await Promise.all(
        Array.from({ length: TEST_EVENTS }, (_, i) =>
          a.call('POST', `/partners/v1/brandau/webhooks/${endpoints[i % ENDPOINTS]!}/test`),
        ),
      );
      expect(new Set(tests.map((t) => t.status))).toContain(202);
      for (const t of tests) expect([202, 429]).toContain(t.status);
      const to = new Date(Date.now() + 60_000).toISOString();
      for (let i = 0; i < REDELIVERIES; i++) {
        const redelivered = await a.call('POST', '/partners/v1/brandau/events/redeliver', { from, to });
        expect([202, 429], JSON.stringify(redelivered.body)).toContain(redelivered.status);
      }
      // A's deliveries are under way (and hang until their timeout) before B buys.
      await until(() => world.slow.received.length >= 4, "A's first deliveries");

      const quote = await b.readyQuote();
      const bought = await b.purchase(quote, CARDS.approved);
      expect(bought.status, JSON.stringify(bought.body)).toBe(200);
      const answeredAt = Date.now();
      const emailOfB = (r: Received) => String(r.mail.messageId).includes(quote.id);
      const issuedOfB = () =>
        world.prompt.received.some((r) => {
          const event = JSON.parse(r.body) as { type: string; data: { quoteId?: string } };
          return event.type === 'policy.issued' && event.data.quoteId === quote.id;
        });
      await until(() => world.smtp.received.some(emailOfB), "B's purchase e-mail", FAIR_DELAY_MS);
      await until(issuedOfB, "B's policy.issued webhook", Math.max(1, FAIR_DELAY_MS - (Date.now() - answeredAt)));
    },
    scaled(120_000),
  );
});
