import { describe, expect, it } from 'vitest';
import { startChildServer } from '../helpers/child-server.js';
import { DIALECT, type TestDatabase } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';
import { until } from '../helpers/polling.js';
import { TEST_PAYMENT_METHODS as PM } from '../helpers/stripe-standin/ledger.js';
import { startStripeStandin, type StripeStandin } from '../helpers/stripe-standin/server.js';
import { scaled } from '../helpers/time-scale.js';
import { PartnerClient } from '../purchases/http-client.js';
import { buyOverHttp, policyPath } from './policy-change-crash-support.js';

/**
 * A Stripe purchase (and below, a cancellation's refund) killed (kill -9) right after each of its
 * steps, then a server that recovers:
 * every quote ends with one policy and one captured PaymentIntent at Stripe, never two charges and
 * never a hold left behind; the partner's retry with its key answers the bought quote and moves
 * no more money. The crash hook exists only outside production: these servers run staging with
 * PAYMENT_GATEWAY=stripe.
 */
const STEPS = ['authorise', 'issue', 'capture'] as const;

// Crashing servers must not recover each other's leftovers.
const HANDS_OFF = {
  DEMO_DATA: 'true',
  PURCHASE_RECOVERY_GRACE_SECONDS: '3600',
  PURCHASE_RECOVERY_INTERVAL_SECONDS: '3600',
};

interface Crashed {
  readonly step: string;
  readonly quote: { id: string; declarations: unknown[] };
  readonly key: string;
}

async function crashAt(database: TestDatabase, standin: StripeStandin, step: string): Promise<Crashed> {
  const server = await startChildServer({ ...database.env, ...standin.env, ...HANDS_OFF, PURCHASE_CRASH_AFTER: step });
  try {
    const client = new PartnerClient(server.url);
    const quote = await client.readyQuote();
    const key = `stripe-crash-${step}`;
    await expect(client.purchase(quote, PM.approve, { 'idempotency-key': key })).rejects.toThrow();
    expect(await server.exited).not.toBe(0);
    return { step, quote, key };
  } finally {
    server.kill();
  }
}

async function purchaseOf(database: TestDatabase, quoteId: string) {
  return database.db
    .selectFrom('purchase')
    .select(['public_id', 'state', 'payment_id', 'amount_minor'])
    .where('quote_id', '=', quoteId)
    .execute();
}

describe(`Stripe purchases killed at each step, then recovered (${DIALECT})`, () => {
  it(
    'one policy and one charge per quote, no hold left, and the retry answers the bought quote',
    async () => {
      const database = await createMigratedTestDatabase();
      const standin = await startStripeStandin();
      try {
        const crashed: Crashed[] = [];
        for (const step of STEPS) crashed.push(await crashAt(database, standin, step));

        const server = await startChildServer({
          ...database.env,
          ...standin.env,
          DEMO_DATA: 'true',
          PURCHASE_RECOVERY_GRACE_SECONDS: '0',
          PURCHASE_RECOVERY_INTERVAL_SECONDS: '1',
        });
        try {
          for (const { quote } of crashed)
            await until(
              async () => (await purchaseOf(database, quote.id)).every((p) => p.state === 'CAPTURED'),
              `the purchase of ${quote.id} captured by recovery`,
              scaled(30_000),
            );
          const client = new PartnerClient(server.url);
          for (const { step, quote, key } of crashed) {
            const [purchase, ...others] = await purchaseOf(database, quote.id);
            expect(others, step).toEqual([]);
            const policies = await database.db
              .selectFrom('policy_header')
              .select('policy_number')
              .where('quote_id', '=', quote.id)
              .execute();
            expect(policies, step).toHaveLength(1);
            const intents = [...standin.ledger.intents.values()].filter(
              (i) => i.metadata.reference === purchase?.public_id,
            );
            expect(
              intents.map((i) => [i.id, i.status, i.amountReceived]),
              step,
            ).toEqual([[purchase?.payment_id, 'succeeded', purchase?.amount_minor]]);

            const before = standin.netCaptured();
            const retried = await client.purchase(quote, PM.approve, { 'idempotency-key': key });
            expect(retried.status, JSON.stringify(retried.body)).toBe(200);
            expect(retried.body).toMatchObject({
              paymentResult: 'APPROVED',
              quote: { policyNumber: policies[0]?.policy_number },
            });
            expect(standin.netCaptured()).toBe(before);
          }
          // No hold is left anywhere at Stripe.
          expect([...standin.ledger.intents.values()].filter((i) => i.status === 'requires_capture')).toEqual([]);
        } finally {
          server.kill();
        }
      } finally {
        await standin.close();
        await database.destroy();
      }
    },
    scaled(300_000),
  );
});

describe(`Stripe refunds killed at each step, then recovered (${DIALECT})`, () => {
  it(
    'a cancellation killed after Stripe refunded (not recorded) and after recording: refunded exactly once',
    async () => {
      const database = await createMigratedTestDatabase();
      const standin = await startStripeStandin();
      try {
        const left: { paymentId: string; changeId: string; key: string; path: string; confirm: string }[] = [];
        for (const step of ['refund-line', 'refund']) {
          const server = await startChildServer({
            ...database.env,
            ...standin.env,
            ...HANDS_OFF,
            POLICY_CHANGE_CRASH_AFTER: step,
          });
          try {
            const client = new PartnerClient(server.url);
            const policy = await buyOverHttp(client, database, PM.approve);
            const path = policyPath(policy.policyNumber);
            const preview = await client.call('POST', `${path}/cancellations`, { reasonCode: 'TRIP_CANCELLED' });
            expect(preview.status, JSON.stringify(preview.body)).toBe(200);
            const changeId = (preview.body as { id: string }).id;
            const key = `stripe-cancel-${step}`;
            const confirm = `${path}/cancellations/${changeId}/confirm`;
            await expect(client.call('POST', confirm, {}, { 'idempotency-key': key })).rejects.toThrow();
            await server.exited;
            // Stripe refunded before the kill, whatever our record says.
            expect(standin.ledger.intents.get(policy.purchasePaymentId)?.amountRefunded, step).toBeGreaterThan(0);
            left.push({ paymentId: policy.purchasePaymentId, changeId, key, path, confirm });
          } finally {
            server.kill();
          }
        }

        const server = await startChildServer({
          ...database.env,
          ...standin.env,
          DEMO_DATA: 'true',
          PURCHASE_RECOVERY_GRACE_SECONDS: '0',
        });
        try {
          const client = new PartnerClient(server.url);
          for (const { paymentId, changeId, key, confirm } of left) {
            const change = await database.db
              .selectFrom('policy_change')
              .select(['state', 'amount_minor'])
              .where('public_id', '=', changeId)
              .executeTakeFirstOrThrow();
            expect(change.state).toBe('SETTLED');
            const intent = standin.ledger.intents.get(paymentId);
            expect(intent?.amountRefunded).toBe(-change.amount_minor);
            const refunds = [...standin.ledger.refunds.values()].filter((r) => r.paymentIntent === paymentId);
            expect(refunds.map((r) => r.amount)).toEqual([-change.amount_minor]);
            const retried = await client.call('POST', confirm, {}, { 'idempotency-key': key });
            expect(retried.status, JSON.stringify(retried.body)).toBe(200);
            expect(standin.ledger.intents.get(paymentId)?.amountRefunded).toBe(-change.amount_minor);
          }
        } finally {
          server.kill();
        }
      } finally {
        await standin.close();
        await database.destroy();
      }
    },
    scaled(300_000),
  );
});
