import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type AppConfig } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import { connectDatabase } from '../../src/db/connect.js';
import { prepareDatabase } from '../../src/server.js';
import { purchaseDepsFor } from '../../src/purchases/deps.js';
import { recoverPurchases } from '../../src/purchases/recovery.js';
import type { TestApp } from '../helpers/app.js';
import { CutSchedule, normalised } from '../helpers/connection-cut.js';
import { createTestDatabase, DIALECT, POSTGRES_URL, type TestDatabase } from '../helpers/database.js';
import { pause } from '../helpers/polling.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { scaled } from '../helpers/time-scale.js';
import { books, CARDS, NOW, purchase, purchaseBody, readyQuote, type PurchaseAnswer } from './support.js';

/**
 * The in-process cut of test/purchases/retry-outcome.test.ts, checked against real ones: the app
 * reaches PostgreSQL through a TCP proxy, and at each step of a purchase the proxy ends every
 * connection just after the next statement was sent (whether it commits, and which statement then
 * fails, is the database's and the pool's: the request may fail at that step, at a later one, or
 * not at all, and the key's release may fail with it). Whatever happened, a retry with the key
 * answers what the purchase answers uncut, and money moves once (a capture the cut kept from the
 * gateway once recovery has run, as in production).
 */
const STEPS = ['start', 'authorise', 'issue', 'capture', 'captured'] as const;

describe.skipIf(DIALECT !== 'postgres')('a retry gets its own outcome: PostgreSQL connections really cut', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;
  // The cut lands once the next statement is on its way (the turn of the event loop after the step).
  const cuts = new CutSchedule(() => setImmediate(() => proxy.cut()));

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(POSTGRES_URL ?? '');
    proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    // A key left in flight by a request whose release was cut too is taken over at once (grace 0).
    const loaded = loadConfig({
      LOG_LEVEL: 'silent',
      DEMO_DATA: 'true',
      RATE_LIMITS: 'false',
      PURCHASE_RECOVERY_GRACE_SECONDS: '0',
    });
    if (database.database.kind !== 'postgres') throw new Error('postgres only');
    const config: AppConfig = {
      ...loaded,
      database: { ...database.database, url: proxy.route(database.database.url) },
    };
    await prepareDatabase({ config, db: database.db, clock: () => NOW });
    const db = connectDatabase(config.database);
    const context: AppContext = { config, db, clock: () => NOW, crashHook: cuts.hook };
    const app = await buildApp(context, { logger: false });
    await app.ready();
    t = {
      app,
      context,
      database,
      async close() {
        await app.close();
        await db.destroy();
      },
    };
  });

  afterAll(async () => {
    await t.close();
    await proxy.close();
    await database.destroy();
  });

  /**
   * Sends until the answer is final: not the cut's 503, nor the 409 of a key its cut request still
   * held, nor a gateway outage (the sandbox keeps its payments in this database: a cut of its
   * statement is its outage, which the contract says to retry with the same key).
   */
  async function answered(send: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
    const deadline = Date.now() + scaled(20_000);
    for (;;) {
      const answer = await send();
      const code = answer.json<PurchaseAnswer>().validation.errors[0]?.code;
      const retry = ['DATABASE_UNAVAILABLE', 'IDEMPOTENCY_REQUEST_IN_PROGRESS', 'PAYMENT_GATEWAY_ERROR'].includes(
        code ?? '',
      );
      if (!retry || Date.now() > deadline) return answer;
      await pause(50);
    }
  }

  it(
    'at every step: the retry answers the uncut answer, money moves once, another request under the key is refused',
    async () => {
      const key = 'reference';
      const reference = await purchase(t, purchaseBody(await readyQuote(t), CARDS.approved), { key });
      expect(reference.statusCode, reference.body).toBe(200);
      const outcome = (body: string) => normalised(body, JSON.parse(body).quote?.policyNumber as string | undefined);
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...STEPS), { minLength: 1, maxLength: 3 }), async (steps) => {
          const key = `proxy-cut-${++runs}`;
          const quote = await readyQuote(t);
          const body = purchaseBody(quote, CARDS.approved);
          cuts.arm(steps);
          try {
            const first = await purchase(t, body, { key });
            expect([200, 503], first.body).toContain(first.statusCode);
            const answer = await answered(() => purchase(t, body, { key }));
            expect(answer.statusCode, answer.body).toBe(200);
            expect(outcome(answer.body)).toEqual(outcome(reference.body));
            const other = await answered(() => purchase(t, { ...body, cardToken: { token: CARDS.declined } }, { key }));
            expect(other.statusCode, other.body).toBe(422);
          } finally {
            cuts.disarm();
          }
          // A capture whose gateway call was cut is left to recovery (the answer stands: the policy is issued).
          const later = () => new Date(NOW.getTime() + 1000);
          await recoverPurchases(
            { ...purchaseDepsFor(t.context, t.app.paymentGateways), clock: later },
            { graceSeconds: 0 },
          );
          expect(await books(t, quote.id)).toMatchObject({ policies: 1, captures: 1 });
        }),
        { numRuns: STEPS.length + 3, examples: STEPS.map((step) => [[step]]) },
      );
    },
    scaled(120_000),
  );
});
if (!POSTGRES_URL) console.info('PostgreSQL connection cuts skipped: DATABASE_URL is not set.');
