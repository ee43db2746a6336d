import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_TIMING, startChildServer, type ChildServer } from '../helpers/child-server.js';
import { pause, until } from '../helpers/polling.js';
import { DIALECT, type TestDatabase } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';
import { PartnerClient } from '../purchases/http-client.js';
import { startSmtpServer, type Received } from '../documents/delivery-support.js';
import { isPdf, pdfText } from '../documents/pdf-text.js';
import { scaled } from '../helpers/time-scale.js';
import { crashGateway, type CrashGatewayName } from './crash-gateways.js';

/**
 * Issue 20: "Kill -9 tests: the server dies after the policy commit and before sending, and during
 * sending; after restart every e-mail is delivered". A real SMTP server in this process receives
 * what real child servers send. (a) PURCHASE_CRASH_AFTER=issue: the e-mail was committed with the
 * policy and nothing was sent; a restart sends it once. (b) OUTBOX_CRASH_AFTER=send: the SMTP
 * server accepted the e-mail and the process died before SENT; a restart sends it again with the
 * same Message-ID (at-least-once), records SENT, and sends no third copy. (a) runs on the sandbox
 * and on Stripe (the stand-in): the restart also captures the purchase once at the gateway.
 */

/** Fast passes; a dead process's lease runs out in seconds; recovery takes purchases left at once. */
const FAST = {
  OUTBOX_INTERVAL_MS: '100',
  ...OUTBOX_TIMING,
  PURCHASE_RECOVERY_GRACE_SECONDS: '0',
};
const MESSAGE_ID = /^<policy-documents=3A[0-9a-f-]+=3A1@brandau\.example>$/;

/** One scenario's world: its own database, SMTP server, card gateway and child servers, all closed after. */
function scenario(gatewayName: CrashGatewayName = 'sandbox') {
  const gateway = crashGateway(gatewayName);
  const world = {
    gateway,
    database: undefined as unknown as TestDatabase,
    smtp: undefined as unknown as Awaited<ReturnType<typeof startSmtpServer>>,
    servers: [] as ChildServer[],
    async start(env: Record<string, string>): Promise<ChildServer> {
      const server = await startChildServer({
        ...world.database.env,
        ...gateway.env(),
        ...FAST,
        DEMO_DATA: 'true',
        SMTP_URL: world.smtp.url,
        ...env,
      });
      world.servers.push(server);
      return server;
    },
    /** The purchase's policy and its one e-mail message. */
    async books(quoteId: string) {
      const header = await world.database.db
        .selectFrom('policy_header')
        .select('policy_number')
        .where('quote_id', '=', quoteId)
        .executeTakeFirstOrThrow();
      const messages = await world.database.db
        .selectFrom('outbox_message')
        .select(['message_key', 'state', 'attempts', 'sent_at'])
        // The e-mail's; the partner events committed beside it are test/process/events-crashes' concern.
        .where('kind', '=', 'policy-documents')
        .orderBy('id')
        .execute();
      return { policyNumber: header.policy_number, messages };
    },
    /** The quote's purchase rows, and the payments the gateway holds for the first. */
    async money(quoteId: string) {
      const purchases = await world.database.db
        .selectFrom('purchase')
        .select(['public_id', 'state', 'payment_id', 'amount_minor'])
        .where('quote_id', '=', quoteId)
        .execute();
      const payments = purchases[0] ? await gateway.paymentsFor(world.database, purchases[0].public_id) : [];
      return { purchases, payments };
    },
  };
  beforeAll(async () => {
    world.database = await createMigratedTestDatabase();
    world.smtp = await startSmtpServer();
  });
  afterAll(async () => {
    world.servers.forEach((s) => s.kill());
    await Promise.all(world.servers.map((s) => s.exited));
    await world.smtp.close();
    await world.database.destroy();
  });
  return world;
}

/** The e-mail carries the policy's certificate (a PDF naming it) and the PDS, to the traveller. */
async function expectPolicyEmail(received: Received, policyNumber: string): Promise<void> {
  expect(received.envelopeTo).toEqual(['grace@example.com']);
  expect(received.mail.messageId).toMatch(MESSAGE_ID);
  expect(received.mail.subject).toContain(policyNumber);
  const [certificate, pds, ...more] = received.mail.attachments;
  expect(more).toEqual([]);
  expect(certificate?.filename).toBe(`certificate-${policyNumber}-1-en.pdf`);
  expect(certificate?.contentType).toBe('application/pdf');
  expect(isPdf(certificate!.content) && isPdf(pds!.content)).toBe(true);
  const text = await pdfText(certificate!.content);
  expect(text).toContain(policyNumber);
  expect(text).toContain('Grace');
}

describe(`policy e-mails when the server is killed (${DIALECT})`, () => {
  describe.each(['sandbox', 'stripe'] as const)(
    'killed after the policy commit, before any e-mail (PURCHASE_CRASH_AFTER=issue, %s)',
    (gatewayName) => {
      const world = scenario(gatewayName);
      let quoteId: string;

      beforeAll(async () => {
        const crashing = await world.start({ PURCHASE_CRASH_AFTER: 'issue' });
        const client = new PartnerClient(crashing.url);
        const quote = await client.readyQuote();
        quoteId = quote.id;
        await expect(client.purchase(quote, world.gateway.cards.approved)).rejects.toThrow();
        expect(await crashing.exited).not.toBe(0);
      }, scaled(60_000));

      it('the policy and its e-mail were committed together; nothing reached the SMTP server', async () => {
        const books = await world.books(quoteId);
        expect(books.messages).toEqual([
          { message_key: `policy-documents:${quoteId}:1`, state: 'PENDING', attempts: 0, sent_at: null },
        ]);
        expect(world.smtp.received).toEqual([]);
      });

      it(
        'a restarted server sends it once, with the certificate, and records it SENT',
        async () => {
          await world.start({});
          await until(() => world.smtp.received.length > 0, 'the e-mail');
          const { policyNumber } = await world.books(quoteId);
          await until(async () => (await world.books(quoteId)).messages[0]?.state === 'SENT', 'SENT');
          // Further passes of the worker send nothing more.
          await pause(scaled(500));
          expect(world.smtp.received).toHaveLength(1);
          await expectPolicyEmail(world.smtp.received[0]!, policyNumber);
          expect((await world.books(quoteId)).messages).toMatchObject([{ state: 'SENT', attempts: 1 }]);
          // Recovery captured the payment the crash left authorised: once, in full, at the gateway.
          const { purchases, payments } = await world.money(quoteId);
          expect(purchases.map((p) => p.state)).toEqual(['CAPTURED']);
          expect(payments.map((p) => [p.paymentId, p.captured, p.refunded])).toEqual([
            [purchases[0]!.payment_id, purchases[0]!.amount_minor, 0],
          ]);
        },
        scaled(60_000),
      );
    },
  );

  describe('killed after the SMTP server accepted the e-mail, before SENT (OUTBOX_CRASH_AFTER=send)', () => {
    const world = scenario();
    let quoteId: string;

    beforeAll(async () => {
      const crashing = await world.start({ OUTBOX_CRASH_AFTER: 'send:policy-documents' });
      const client = new PartnerClient(crashing.url);
      const quote = await client.readyQuote();
      quoteId = quote.id;
      // The worker may kill the process before or after the purchase's answer reaches us.
      const answered = await client.purchase(quote, world.gateway.cards.approved).catch(() => undefined);
      if (answered) expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      expect(await crashing.exited).not.toBe(0);
    }, scaled(60_000));

    it('the SMTP server holds one copy; the message is still PENDING after one attempt', async () => {
      const books = await world.books(quoteId);
      expect(books.messages).toEqual([
        { message_key: `policy-documents:${quoteId}:1`, state: 'PENDING', attempts: 1, sent_at: null },
      ]);
      expect(world.smtp.received).toHaveLength(1);
      await expectPolicyEmail(world.smtp.received[0]!, books.policyNumber);
    });

    it(
      'a restarted server sends it again with the same Message-ID, then SENT: no third copy',
      async () => {
        await world.start({});
        await until(() => world.smtp.received.length > 1, 'the second copy');
        const { policyNumber } = await world.books(quoteId);
        await until(async () => (await world.books(quoteId)).messages[0]?.state === 'SENT', 'SENT');
        await pause(scaled(500));
        expect(world.smtp.received).toHaveLength(2);
        const [first, second] = world.smtp.received as [Received, Received];
        expect(second.mail.messageId).toBe(first.mail.messageId);
        await expectPolicyEmail(second, policyNumber);
        expect((await world.books(quoteId)).messages).toMatchObject([{ state: 'SENT', attempts: 2 }]);
      },
      scaled(60_000),
    );
  });
});
