import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';
import { startChildServer } from '../helpers/child-server.js';
import { DIALECT, type TestDatabase } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';
import { until } from '../helpers/polling.js';
import { scaled } from '../helpers/time-scale.js';
import { PartnerClient } from '../purchases/http-client.js';

/** What a client learnt: an answer's status, or the socket error instead of one. */
interface Outcome {
  readonly status?: number;
  readonly error?: string;
}

interface Call {
  readonly kind: 'purchase' | 'cancellation';
  /** The quote bought, or the cancellation confirmed. */
  readonly id: string;
  readonly path: string;
  readonly body: unknown;
}

/** A POST as a client sends it: half on fresh connections, half on a keep-alive pool. */
function post(url: string, call: Call, authorization: string, agent: Agent | false): Promise<Outcome> {
  const body = JSON.stringify(call.body);
  return new Promise((resolve) => {
    const req = request(
      `${url}${call.path}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'idempotency-key': `${call.kind}-${call.id}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(body);
  });
}

/** Whether any work of `call` reached the database: a purchase started, a change confirmed. */
async function workBegan(database: TestDatabase, call: Call): Promise<boolean> {
  if (call.kind === 'purchase') {
    const purchase = await database.db
      .selectFrom('purchase')
      .select('state')
      .where('quote_id', '=', call.id)
      .executeTakeFirst();
    return purchase !== undefined;
  }
  const change = await database.db
    .selectFrom('policy_change')
    .select('state')
    .where('public_id', '=', call.id)
    .executeTakeFirstOrThrow();
  return change.state !== 'PREVIEW';
}

describe(`SIGTERM under load (${DIALECT})`, () => {
  it(
    'during 200 concurrent purchases and confirms: every request is answered or refused before any work',
    async () => {
      const database = await createMigratedTestDatabase();
      // A short drain, so that requests are still arriving when it ends.
      // The shutdown's bound on this machine's scale: a loaded machine keeps clients arriving longer.
      const server = await startChildServer({
        ...database.env,
        DEMO_DATA: 'true',
        SHUTDOWN_DRAIN_MS: '300',
        SHUTDOWN_TIMEOUT_MS: String(scaled(10_000)),
      });
      const pool = new Agent({ keepAlive: true, maxSockets: 25 });
      try {
        const client = new PartnerClient(server.url);
        const authorization = await client.authorization();
        // More than the server answers in its drain, so requests keep arriving until it stops.
        const cancellation = async (): Promise<Call> => {
          const quote = await client.readyQuote();
          const bought = await client.purchase(quote, CARDS.approved);
          expect(bought.status).toBe(200);
          const { policyNumber } = bought.body.quote as { policyNumber: string };
          const base = `/policies/v1/brandau/policies/${policyNumber}`;
          const preview = await client.call('POST', `${base}/cancellations`, { reasonCode: 'TRIP_CANCELLED' });
          expect(preview.status).toBe(200);
          const id = String(preview.body.id);
          return { kind: 'cancellation', id, path: `${base}/cancellations/${id}/confirm`, body: {} };
        };
        const purchase = async (): Promise<Call> => {
          const quote = await client.readyQuote();
          return {
            kind: 'purchase',
            id: quote.id,
            path: '/quotes/v2/brandau/purchase',
            body: {
              quote: { id: quote.id, input: { regulatoryDeclarations: quote.declarations } },
              cardToken: { token: CARDS.approved },
            },
          };
        };
        const calls: Call[] = [];
        for (let batch = 0; batch < 60; batch++)
          calls.push(...(await Promise.all([cancellation(), ...Array.from({ length: 9 }, purchase)])));

        // 200 clients, each sending its next request as soon as it has its answer, until refused.
        let answered = 0;
        let next = 0;
        const outcomes: { call: Call; outcome: Outcome }[] = [];
        const client200 = async (agent: Agent | false) => {
          for (let call = calls[next++]; call; call = calls[next++]) {
            const outcome = await post(server.url, call, authorization, agent);
            outcomes.push({ call, outcome });
            // Refused (503: shutting down) or cut: a client goes elsewhere.
            if (outcome.status === undefined || outcome.status === 503) return;
            answered += 1;
          }
        };
        const clients = Array.from({ length: 200 }, (_, i) => client200(i % 2 === 0 ? false : pool));
        await until(() => answered >= 100, 'the first answers', scaled(60_000));
        server.process.kill('SIGTERM');
        await Promise.all(clients);
        expect(await server.exited).toBe(0);

        // Answered, or refused before any work: 503 (the drain is over) or connection refused.
        // Never cut: a reset leaves the client not knowing whether its purchase happened.
        const cut = outcomes.filter(({ outcome }) => outcome.status === undefined && outcome.error !== 'ECONNREFUSED');
        const cutAfterWork: Call[] = [];
        for (const { call } of cut) if (await workBegan(database, call)) cutAfterWork.push(call);
        // Each named with the client's error, so a red run says how it was cut.
        const cutHow = cut.map(({ call, outcome }) => `${call.kind} ${call.id}: ${outcome.error}`);
        expect({ cut: cutHow, cutAfterWork }).toEqual({ cut: [], cutAfterWork: [] });
        expect(
          outcomes.filter(({ outcome: o }) => o.status !== undefined && o.status !== 200 && o.status !== 503),
        ).toEqual([]);
        expect(outcomes.filter(({ outcome: o }) => o.status === 200).length).toBeGreaterThanOrEqual(100);

        // Every client that got no 200 learns its outcome by retrying with its key elsewhere.
        const restarted = await startChildServer({ ...database.env, DEMO_DATA: 'true' });
        try {
          const unanswered = outcomes.filter(({ outcome }) => outcome.status !== 200).map(({ call }) => call);
          const retried = await Promise.all(unanswered.map((call) => post(restarted.url, call, authorization, false)));
          expect(retried.filter((o) => o.status !== 200)).toEqual([]);
        } finally {
          restarted.kill();
        }
      } finally {
        pool.destroy();
        server.kill();
        await database.destroy();
      }
    },
    scaled(180_000),
  );
});
