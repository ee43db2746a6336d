import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server.js';
import { DIALECT, type TestDatabase } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';
import { PartnerClient } from '../purchases/http-client.js';
import { booksOf, buyOverHttp, policyPath, type Crashed } from './policy-change-crash-support.js';
import { scaled } from '../helpers/time-scale.js';
import { crashGateway, type CrashGatewayName } from './crash-gateways.js';

/**
 * Issue 19: "Kill -9 at each step of an amendment and a cancellation, then restart: no charge or
 * refund without its transaction, none twice, no policy left in between." Each scenario buys its
 * own policy through a server started with POLICY_CHANGE_CRASH_AFTER, confirms a change (the
 * process SIGKILLs itself after the step, the request dies with it), and one restarted server
 * without the hook recovers them all at start; then the books and a retry of each confirmation.
 * Every scenario runs on the sandbox; on Stripe (the stand-in) one of each family: a charge killed
 * while authorised, a refund killed after Stripe refunded and the change recorded it.
 */
type Step = 'hold' | 'authorise' | 'apply' | 'refund-line' | 'refund';
interface Scenario {
  readonly name: string;
  readonly kind: 'amendments' | 'cancellations';
  /** The trip's new return date (amendments): later charges, earlier refunds. */
  readonly returnDate?: string;
  readonly step: Step;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'amendment that charges', kind: 'amendments', returnDate: '2026-12-30', step: 'hold' },
  { name: 'amendment that charges', kind: 'amendments', returnDate: '2026-12-30', step: 'authorise' },
  { name: 'amendment that charges', kind: 'amendments', returnDate: '2026-12-30', step: 'apply' },
  { name: 'amendment that refunds', kind: 'amendments', returnDate: '2026-12-17', step: 'hold' },
  { name: 'amendment that refunds', kind: 'amendments', returnDate: '2026-12-17', step: 'refund' },
  { name: 'cancellation', kind: 'cancellations', step: 'hold' },
  // Its one line paid at the gateway, not yet recorded on the change: recovery asks again (replayed).
  { name: 'cancellation', kind: 'cancellations', step: 'refund-line' },
  { name: 'cancellation', kind: 'cancellations', step: 'refund' },
];

/** Cancellations killed mid-refund on Stripe: test/process/stripe-crashes.test.ts. */
const RUNS: readonly { gateway: CrashGatewayName; scenarios: readonly Scenario[] }[] = [
  { gateway: 'sandbox', scenarios: SCENARIOS },
  {
    gateway: 'stripe',
    scenarios: SCENARIOS.filter((s) => s.kind === 'amendments' && (s.step === 'authorise' || s.step === 'refund')),
  },
];

/** The state a crash after each step leaves, before any recovery (what the test proves it killed). */
const LEFT_AT: Record<Step, string> = {
  hold: '',
  authorise: 'STARTED',
  apply: 'APPLIED',
  'refund-line': 'REFUNDING',
  refund: 'REFUNDING',
};

// Crashing servers must not recover each other's leftovers (they would crash again mid-recovery).
const HANDS_OFF = { PURCHASE_RECOVERY_GRACE_SECONDS: '3600', PURCHASE_RECOVERY_INTERVAL_SECONDS: '3600' };

describe.each(RUNS)(
  `policy changes killed at each step, then a restart ($gateway, ${DIALECT})`,
  ({ gateway: name, scenarios }) => {
    const gateway = crashGateway(name);
    const CARDS = gateway.cards;
    let database: TestDatabase;
    const servers: ChildServer[] = [];
    const crashed = new Map<Scenario, Crashed>();
    const before = new Map<Scenario, Awaited<ReturnType<typeof booksOf>>>();
    let restarted: ChildServer;

    /** Buys a policy on a server with the hook, previews the change and confirms it: the server dies. */
    async function crash(scenario: Scenario): Promise<Crashed> {
      const server = await startChildServer({
        ...database.env,
        ...gateway.env(),
        ...HANDS_OFF,
        DEMO_DATA: 'true',
        POLICY_CHANGE_CRASH_AFTER: scenario.step,
      });
      servers.push(server);
      const client = new PartnerClient(server.url);
      const policy = await buyOverHttp(client, database, CARDS.approved);
      const path = policyPath(policy.policyNumber);
      const preview =
        scenario.kind === 'amendments'
          ? await client.call('POST', `${path}/amendments`, {
              input: { ...policy.input, returnDate: scenario.returnDate },
            })
          : await client.call('POST', `${path}/cancellations`, { reasonCode: 'TRIP_CANCELLED' });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      const change = preview.body as { id: string; difference?: { transactionAmount: number }; refundAmount?: number };
      expect(change.id).toBeTypeOf('string');
      const charges = (change.difference?.transactionAmount ?? 0) > 0;
      const body = charges ? { cardToken: { token: CARDS.approved } } : {};
      const key = `crash-${scenario.kind}-${scenario.step}-${scenario.returnDate ?? 'cancel'}`;
      await expect(
        client.call('POST', `${path}/${scenario.kind}/${change.id}/confirm`, body, { 'idempotency-key': key }),
      ).rejects.toThrow();
      await server.exited;
      const row = await database.db
        .selectFrom('policy_change')
        .select('amount_minor')
        .where('public_id', '=', change.id)
        .executeTakeFirstOrThrow();
      return { ...policy, kind: scenario.kind, changeId: change.id, amountMinor: row.amount_minor, key, body };
    }

    beforeAll(async () => {
      database = await createMigratedTestDatabase();
      // Two lanes of crashing servers at once (each scenario has its own policy): startup dominates the time.
      const lanes = [0, 1].map((lane) => scenarios.filter((_, i) => i % 2 === lane));
      await Promise.all(
        lanes.map(async (lane) => {
          for (const scenario of lane) {
            const left = await crash(scenario);
            crashed.set(scenario, left);
            before.set(scenario, await booksOf(database, left, gateway));
          }
        }),
      );
      // Recovery runs at start, before the server serves: once it says `serving` the books are final.
      restarted = await startChildServer({
        ...database.env,
        ...gateway.env(),
        DEMO_DATA: 'true',
        PURCHASE_RECOVERY_GRACE_SECONDS: '0',
      });
      servers.push(restarted);
    }, scaled(120_000));

    afterAll(async () => {
      servers.forEach((s) => s.kill());
      await Promise.all(servers.map((s) => s.exited));
      await database.destroy();
    });

    describe.each(scenarios)('$name, killed after $step', (scenario) => {
      it('the crash left the change in between, with nothing charged or refunded without its transaction', () => {
        const left = crashed.get(scenario)!;
        const books = before.get(scenario)!;
        const charging = left.amountMinor > 0;
        const expected = LEFT_AT[scenario.step] || (charging ? 'STARTED' : 'REFUNDING');
        expect(books.change.state).toBe(expected);
        expect(books.transactions.map((t) => t.sequence_number)).toEqual(scenario.step === 'apply' ? [1, 2] : [1]);
        // Nothing captured and nothing refunded yet, whatever was authorised.
        expect(books.charges.every((c) => c.captured === 0)).toBe(true);
        const refunded = ['refund-line', 'refund'].includes(scenario.step) ? -left.amountMinor : 0;
        expect(books.purchasePayment.refunded).toBe(refunded);
        // A line paid is recorded on the change before the next step: not yet when killed right after the gateway's answer.
        const marked = (JSON.parse(books.change.refunds_json ?? '[]') as { refunded?: boolean }[]).map(
          (l) => !!l.refunded,
        );
        if (scenario.step === 'refund-line') expect(marked).toEqual([false]);
        if (scenario.step === 'refund') expect(marked).toEqual([true]);
        expect(books.charges).toHaveLength(['authorise', 'apply'].includes(scenario.step) ? 1 : 0);
      });

      it('after the restart: settled, one transaction (sequence 2), the money moved exactly once', async () => {
        const left = crashed.get(scenario)!;
        const books = await booksOf(database, left, gateway);
        expect(books.change).toMatchObject({ state: 'SETTLED', sequence_number: 2 });
        const action = scenario.kind === 'amendments' ? 'Amendment' : 'Cancellation';
        expect(books.transactions.map((t) => [t.sequence_number, t.action_type])).toEqual([
          [1, 'Purchase'],
          [2, action],
        ]);
        expect(books.header).toMatchObject({
          sequence_number: 2,
          status: scenario.kind === 'cancellations' ? 'Cancelled' : 'Active',
        });
        const keys = books.operations.map((o) => o.idempotency_key);
        expect(new Set(keys).size).toBe(keys.length);
        if (left.amountMinor > 0) {
          expect(books.charges).toHaveLength(1);
          expect(books.charges[0]).toMatchObject({ amount: left.amountMinor, captured: left.amountMinor, refunded: 0 });
          expect(books.transactions[1]!.payment_reference).toBe(books.charges[0]!.paymentId);
          if (gateway.name === 'sandbox')
            expect(books.operations.map((o) => o.operation).sort()).toEqual(['authorise', 'capture']);
          expect(books.purchasePayment.refunded).toBe(0);
        } else {
          expect(left.amountMinor).toBeLessThan(0);
          expect(books.charges).toHaveLength(0);
          expect(books.purchasePayment.refunded).toBe(-left.amountMinor);
          expect(books.transactions[1]!.payment_reference).toBe(left.purchasePaymentId);
          if (gateway.name === 'sandbox') expect(books.operations.map((o) => o.operation)).toEqual(['refund']);
          // Stripe's own record: one refund, of the change's amount.
          else expect(gateway.refundsOf(left.purchasePaymentId)).toEqual([-left.amountMinor]);
        }
      });

      it("a retry of the confirmation with its Idempotency-Key answers the change's result, and moves no money", async () => {
        const left = crashed.get(scenario)!;
        const client = new PartnerClient(restarted.url);
        const path = `${policyPath(left.policyNumber)}/${left.kind}/${left.changeId}/confirm`;
        const retry = await client.call('POST', path, left.body, { 'idempotency-key': left.key });
        expect(retry.status, JSON.stringify(retry.body)).toBe(200);
        const answer = retry.body as {
          policy: { sequenceNumber: number; policyActionType: string };
          amendment?: { id: string; status: string };
          cancellation?: { id: string; status: string };
          validation: { isValid: boolean };
        };
        expect(answer.validation.isValid).toBe(true);
        expect(answer.policy.sequenceNumber).toBe(2);
        expect(answer.amendment ?? answer.cancellation).toMatchObject({ id: left.changeId, status: 'APPLIED' });
        const books = await booksOf(database, left, gateway);
        if (gateway.name === 'sandbox') expect(books.operations).toHaveLength(left.amountMinor > 0 ? 2 : 1);
        else expect(gateway.refundsOf(left.purchasePaymentId)).toEqual(left.amountMinor > 0 ? [] : [-left.amountMinor]);
        expect(books.charges.map((c) => c.captured)).toEqual(left.amountMinor > 0 ? [left.amountMinor] : []);
        expect(books.purchasePayment.refunded).toBe(left.amountMinor > 0 ? 0 : -left.amountMinor);
        expect(books.transactions).toHaveLength(2);
      });
    });
  },
);
