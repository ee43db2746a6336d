import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server.js';
import { DIALECT, type TestDatabase } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';
import { scaled } from '../helpers/time-scale.js';
import { PartnerClient } from '../purchases/http-client.js';
import { buyOverHttp, policyPath } from './policy-change-crash-support.js';
import { crashGateway, type CrashGatewayName } from './crash-gateways.js';

/**
 * "Hardening II", item 11, with a real kill -9: a purchase, its 3-D Secure continuation and an
 * amendment (nothing to pay; a charge continued after 3-D Secure) killed at a step. A dead process
 * leaves its key in flight, never released, which the in-process cuts of every step
 * (test/purchases/retry-outcome.test.ts, test/policy-changes/retry-outcome.test.ts) do not: the
 * retry's key is judged and taken over. After a restart (its recovery finishes what was left), the
 * retry with the same key answers the operation's own outcome; another request under the key is
 * refused; money moved once. Every scenario runs on the sandbox; on Stripe (the stand-in) one of
 * each family runs too: a purchase and a charge, each continued after 3-D Secure on Stripe's page.
 */
type Operation = 'purchase' | 'purchase continuation' | 'nothing to pay' | 'amendment continuation';
interface Scenario {
  readonly operation: Operation;
  readonly step: string;
}
// Four (each server's start is the cost): a purchase and a 3-D Secure continuation issued, not
// captured; a change with nothing to pay settled; a charge continued after 3-D Secure, applied,
// not captured.
// test/process/policy-change-crashes.test.ts kills charges, refunds and cancellations at their other steps.
const SCENARIOS: readonly Scenario[] = [
  { operation: 'purchase', step: 'issue' },
  { operation: 'purchase continuation', step: 'issue' },
  { operation: 'nothing to pay', step: 'settle' },
  { operation: 'amendment continuation', step: 'apply' },
];
/** The sandbox runs every scenario; Stripe the two continuations (its 3-D Secure, its captures). */
const RUNS: readonly { gateway: CrashGatewayName; scenarios: readonly Scenario[] }[] = [
  { gateway: 'sandbox', scenarios: SCENARIOS },
  { gateway: 'stripe', scenarios: SCENARIOS.filter((s) => s.operation.endsWith('continuation')) },
];
const isPurchase = (operation: Operation) => operation.startsWith('purchase');

// Crashing servers must not recover each other's leftovers (they would crash again mid-recovery).
const HANDS_OFF = { PURCHASE_RECOVERY_GRACE_SECONDS: '3600', PURCHASE_RECOVERY_INTERVAL_SECONDS: '3600' };

interface Crashed {
  readonly path: string;
  readonly key: string;
  readonly body: Record<string, unknown>;
  readonly other: Record<string, unknown>;
  /** The quote bought (purchases) or the policy changed. */
  readonly quoteId?: string;
  readonly policyNumber?: string;
  readonly changeId?: string;
  /** The payment of the policy's purchase (changes). */
  readonly purchasePaymentId?: string;
}

const challengeOf = (body: Record<string, unknown>) =>
  (body.threeDSResponseInfo as { threeDSResponse?: string } | undefined)?.threeDSResponse ?? '';

describe.each(RUNS)(
  `a retry after a kill -9 gets its own outcome ($gateway, ${DIALECT})`,
  ({ gateway: name, scenarios }) => {
    const gateway = crashGateway(name);
    const CARDS = gateway.cards;
    let database: TestDatabase;
    const servers: ChildServer[] = [];
    const crashed = new Map<Scenario, Crashed>();
    let restarted: ChildServer;

    /** Prepares the operation on a server with the hook at `step`, then sends it: the server dies. */
    async function crash(scenario: Scenario, lane: number): Promise<Crashed> {
      const hook = isPurchase(scenario.operation) ? 'PURCHASE_CRASH_AFTER' : 'POLICY_CHANGE_CRASH_AFTER';
      const server = await startChildServer({
        ...database.env,
        ...gateway.env(),
        ...HANDS_OFF,
        DEMO_DATA: 'true',
        [hook]: scenario.step,
      });
      servers.push(server);
      const client = new PartnerClient(server.url);
      const key = `kill-${lane}-${scenario.operation.replace(/ /g, '-')}-${scenario.step}`;
      const prepared = await prepare(client, server.url, scenario.operation, key);
      await expect(client.call('POST', prepared.path, prepared.body, { 'idempotency-key': key })).rejects.toThrow();
      await server.exited;
      return { ...prepared, key };
    }

    async function prepare(client: PartnerClient, url: string, operation: Operation, key: string) {
      if (isPurchase(operation)) {
        const quote = await client.readyQuote();
        const path = '/quotes/v2/brandau/purchase';
        const body = (token: string, extra: Record<string, unknown> = {}) => ({
          quote: { id: quote.id, input: { regulatoryDeclarations: quote.declarations } },
          cardToken: { token },
          ...extra,
        });
        if (operation === 'purchase')
          return { path, quoteId: quote.id, body: body(CARDS.approved), other: body(CARDS.declined) };
        const challenged = await client.purchase(quote, CARDS.challenge, { 'idempotency-key': `${key}-start` });
        expect(challenged.status, JSON.stringify(challenged.body)).toBe(200);
        const challenge = challengeOf(challenged.body);
        await gateway.approveChallenge(url, challenge);
        const threeDSRequestInfo = { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: challenge };
        return {
          path,
          quoteId: quote.id,
          body: body(CARDS.challenge, { threeDSRequestInfo }),
          other: body(CARDS.approved),
        };
      }
      const policy = await buyOverHttp(client, database, CARDS.approved);
      const base = policyPath(policy.policyNumber);
      const returnDate = operation === 'amendment continuation' ? '2026-12-30' : undefined;
      const preview = await client.call('POST', `${base}/amendments`, {
        input: { ...policy.input, ...(returnDate ? { returnDate } : {}) },
      });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      const changeId = preview.body.id as string;
      const path = `${base}/amendments/${changeId}/confirm`;
      const common = { path, policyNumber: policy.policyNumber, changeId, purchasePaymentId: policy.purchasePaymentId };
      if (operation === 'nothing to pay')
        return { ...common, body: {}, other: { cardToken: { token: CARDS.declined } } };
      const challenged = await client.call(
        'POST',
        path,
        { cardToken: { token: CARDS.challenge } },
        {
          'idempotency-key': `${key}-start`,
        },
      );
      expect(challenged.status, JSON.stringify(challenged.body)).toBe(200);
      const challenge = challengeOf(challenged.body);
      await gateway.approveChallenge(url, challenge);
      const threeDSRequestInfo = { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: challenge };
      return { ...common, body: { threeDSRequestInfo }, other: { cardToken: { token: CARDS.approved } } };
    }

    beforeAll(async () => {
      database = await createMigratedTestDatabase();
      // Two lanes of crashing servers at once (each scenario has its own quote or policy): startup dominates the time.
      const lanes = [0, 1].map((lane) => scenarios.filter((_, i) => i % 2 === lane));
      await Promise.all(
        lanes.map(async (scenarios, lane) => {
          for (const scenario of scenarios) crashed.set(scenario, await crash(scenario, lane));
        }),
      );
      // Recovery runs at start, before the server serves.
      restarted = await startChildServer({
        ...database.env,
        ...gateway.env(),
        DEMO_DATA: 'true',
        PURCHASE_RECOVERY_GRACE_SECONDS: '0',
      });
      servers.push(restarted);
    }, scaled(150_000));

    afterAll(async () => {
      servers.forEach((s) => s.kill());
      await Promise.all(servers.map((s) => s.exited));
      await database.destroy();
    });

    it.each(scenarios)('$operation killed after $step: the retry answers its outcome, once', async (scenario) => {
      const left = crashed.get(scenario)!;
      const client = new PartnerClient(restarted.url);
      const send = (body: Record<string, unknown>) =>
        client.call('POST', left.path, body, { 'idempotency-key': left.key });
      const refused = await send(left.other);
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      const retry = await send(left.body);
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body.validation).toEqual({ isValid: true, errors: [] });
      const { db } = database;
      if (left.quoteId !== undefined) {
        const purchases = await db
          .selectFrom('purchase')
          .select(['public_id', 'state', 'policy_number', 'payment_id', 'amount_minor'])
          .where('quote_id', '=', left.quoteId)
          .execute();
        expect(purchases).toHaveLength(1);
        expect(purchases[0]).toMatchObject({ state: 'CAPTURED' });
        expect(retry.body).toMatchObject({
          quote: { id: left.quoteId, isPurchased: true, policyNumber: purchases[0]!.policy_number },
          paymentResult: 'APPROVED',
          paymentIds: purchases[0]!.payment_id,
        });
        // The gateway's own books: one payment for the purchase, captured once in full.
        const payments = await gateway.paymentsFor(database, purchases[0]!.public_id);
        expect(payments.map((p) => [p.paymentId, p.captured, p.refunded])).toEqual([
          [purchases[0]!.payment_id, purchases[0]!.amount_minor, 0],
        ]);
      } else {
        const change = await db
          .selectFrom('policy_change')
          .select(['state', 'sequence_number', 'amount_minor'])
          .where('public_id', '=', left.changeId!)
          .executeTakeFirstOrThrow();
        expect(change).toMatchObject({ state: 'SETTLED', sequence_number: 2 });
        const answer = retry.body as { policy: { sequenceNumber: number }; amendment?: unknown };
        expect(answer.policy.sequenceNumber).toBe(2);
        expect(answer.amendment).toMatchObject({ id: left.changeId });
        // Money moved once, in the gateway's own books: the change's charge captured in full, or the
        // purchase's payment refunded by the change's amount, or nothing.
        const charges = await gateway.paymentsFor(database, left.changeId!);
        const charged = change.amount_minor > 0 ? [[change.amount_minor, change.amount_minor, 0]] : [];
        expect(charges.map((p) => [p.amount, p.captured, p.refunded])).toEqual(charged);
        const purchased = await gateway.payment(database, left.purchasePaymentId!);
        expect(purchased?.refunded).toBe(Math.max(0, -change.amount_minor));
        if (gateway.name === 'sandbox') {
          // The change's own sandbox calls are each keyed once.
          const operations = await db
            .selectFrom('sandbox_operation')
            .select('operation')
            .where('idempotency_key', 'like', `policy-change:${left.changeId}:%`)
            .execute();
          const expected =
            change.amount_minor > 0
              ? ['authorise', 'capture', 'continue_3ds']
              : change.amount_minor < 0
                ? ['refund']
                : [];
          expect(operations.map((o) => o.operation).sort()).toEqual(expected);
        }
      }
      const replay = await client.call('POST', left.path, left.body, { 'idempotency-key': left.key });
      expect(replay).toEqual(retry);
    });
  },
);
