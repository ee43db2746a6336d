import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server.js';
import { DIALECT, type TestDatabase } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';
import { scaled } from '../helpers/time-scale.js';
import { PartnerClient } from '../purchases/http-client.js';

/**
 * An on-account purchase killed with kill -9 at a step of the money flow (the demo partner DEMOA
 * buys on account): after the hold was written (nothing of ours committed yet), and after the
 * charge was written to the account (the policy issued, the capture not recorded). After a
 * restart, whose recovery finishes what was left, the retry with the same key answers the
 * purchase's own outcome, and the account holds one hold and one charge: the ledger's replays by
 * key make the money move once, as the card gateway's do.
 */
const STEPS = ['authorise', 'capture'] as const;
type Step = (typeof STEPS)[number];

// Crashing servers must not recover each other's leftovers (they would crash again mid-recovery).
const HANDS_OFF = { PURCHASE_RECOVERY_GRACE_SECONDS: '3600', PURCHASE_RECOVERY_INTERVAL_SECONDS: '3600' };

interface Crashed {
  readonly quoteId: string;
  readonly key: string;
  readonly body: Record<string, unknown>;
}

const PATH = '/quotes/v2/brandau/purchase';

describe(`an on-account purchase killed mid-way, then retried (${DIALECT})`, () => {
  let database: TestDatabase;
  const servers: ChildServer[] = [];
  const crashed = new Map<Step, Crashed>();
  let restarted: ChildServer;

  async function crash(step: Step): Promise<Crashed> {
    const server = await startChildServer({
      ...database.env,
      ...HANDS_OFF,
      DEMO_DATA: 'true',
      PURCHASE_CRASH_AFTER: step,
    });
    servers.push(server);
    const client = new PartnerClient(server.url);
    const quote = await client.readyQuote();
    const body = {
      quote: { id: quote.id, input: { regulatoryDeclarations: quote.declarations } },
      paymentMethod: 'ON_ACCOUNT',
    };
    const key = `on-account-kill-${step}`;
    await expect(client.call('POST', PATH, body, { 'idempotency-key': key })).rejects.toThrow();
    await server.exited;
    return { quoteId: quote.id, key, body };
  }

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    await Promise.all(STEPS.map(async (step) => crashed.set(step, await crash(step))));
    // Recovery runs at start, before the server serves.
    restarted = await startChildServer({ ...database.env, DEMO_DATA: 'true', PURCHASE_RECOVERY_GRACE_SECONDS: '0' });
    servers.push(restarted);
  }, scaled(120_000));

  afterAll(async () => {
    servers.forEach((s) => s.kill());
    await Promise.all(servers.map((s) => s.exited));
    await database.destroy();
  });

  it.each(STEPS)('killed after %s: the retry answers the purchase, the account moved once', async (step) => {
    const left = crashed.get(step)!;
    const client = new PartnerClient(restarted.url);
    const retry = await client.call('POST', PATH, left.body, { 'idempotency-key': left.key });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.validation).toEqual({ isValid: true, errors: [] });
    const { db } = database;
    const purchases = await db
      .selectFrom('purchase')
      .select(['public_id', 'state', 'policy_number', 'payment_id', 'payment_method', 'amount_minor'])
      .where('quote_id', '=', left.quoteId)
      .execute();
    expect(purchases).toHaveLength(1);
    const [bought] = purchases;
    expect(bought).toMatchObject({ state: 'CAPTURED', payment_method: 'ON_ACCOUNT' });
    expect(retry.body).toMatchObject({
      quote: { id: left.quoteId, isPurchased: true, policyNumber: bought!.policy_number },
      paymentResult: 'APPROVED',
      paymentMethod: 'ON_ACCOUNT',
      paymentIds: bought!.payment_id,
    });
    const entries = await db
      .selectFrom('partner_account_entry')
      .select(['kind', 'amount_minor', 'payment_id'])
      .where('reference', '=', bought!.public_id)
      .orderBy('id')
      .execute();
    expect(entries).toEqual([
      { kind: 'hold', amount_minor: bought!.amount_minor, payment_id: bought!.payment_id },
      { kind: 'charge', amount_minor: bought!.amount_minor, payment_id: bought!.payment_id },
    ]);
    const policies = await db.selectFrom('policy_header').select('id').where('quote_id', '=', left.quoteId).execute();
    expect(policies).toHaveLength(1);
    expect(await db.selectFrom('sandbox_operation').select('id').execute()).toEqual([]);
  });
});
