import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor, ensureTestUser } from '../helpers/auth.js';
import { POSTGRES_URL } from '../helpers/database.js';
import { CARDS, NOW, purchase, purchaseBody, readyQuote } from '../purchases/support.js';

// PostgreSQL keeps a generic plan for a named statement after five runs when it costs no more
// than the custom ones (plan_cache_mode=auto, docs/decisions.md). A generic plan is made without
// the values and may be kept while a table grows, so every statement the partner flows run must
// reach its rows through a unique key even in its generic plan, made here on near-empty tables:
// never a scan of a table that grows with traffic, never one of the listing indexes (a partner's
// quotes or policies, purchases by state), which is what a tie between candidate indexes chose once.

/** Tables that grow with traffic. */
const GROWING = new Set([
  'quote',
  'purchase',
  'policy_header',
  'policy_detail',
  'policy_traveller',
  'policy_option',
  'policy_financial_value',
  'sandbox_payment',
  'sandbox_operation',
  'idempotency_key',
  'refresh_token',
  'login_failure',
]);
/** Indexes that list many rows of one owner or state (recovery, housekeeping), never the way to one row. */
const LISTING = new Set([
  'quote_partner_idx',
  'policy_header_partner_idx',
  'purchase_state_idx',
  'idempotency_key_expires_at_idx',
]);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

// One connection: every statement the flows prepare is visible in its pg_prepared_statements.
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW, poolSize: 1 });

describe.skipIf(!POSTGRES_URL)('generic plans of the partner flows (postgres)', () => {
  it('reach every row of a growing table by a unique key, whatever the values', async () => {
    const t = getApp();
    // The flows: tokens (a failed login, a password grant, a refresh), quote create and read,
    // purchase (with an Idempotency-Key), policy reads.
    const { login, password } = await ensureTestUser(t, 'brandau', 'A');
    const grant = (form: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/users/brandau/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ client_id: 'API', ...form }).toString(),
      });
    const partnerLogin = { grant_type: 'password', customerInterfaceId: '8', userTypeId: '4', username: login };
    expect((await grant({ ...partnerLogin, password: 'not-the-password' })).statusCode).toBe(401);
    const granted = await grant({ ...partnerLogin, password });
    expect(granted.statusCode).toBe(200);
    expect(
      (
        await grant({
          grant_type: 'refresh_token',
          refresh_token: granted.json<{ refresh_token: string }>().refresh_token,
        })
      ).statusCode,
    ).toBe(200);
    const headers = await bearerFor(t, 'brandau', 'A');
    const quote = await readyQuote(t);
    expect(
      (await t.app.inject({ method: 'GET', url: `/quotes/v2/brandau/quote/${quote.id}`, headers })).statusCode,
    ).toBe(200);
    const bought = await purchase(t, purchaseBody(quote, CARDS.approved), { key: 'generic-plans-1' });
    expect(bought.statusCode).toBe(200);
    const policyNumber = bought.json<{ quote: { policyNumber: string } }>().quote.policyNumber;
    for (const path of [
      `/policies/v1/brandau/policies/${policyNumber}`,
      `/policies/v1/brandau/policies/${policyNumber}/details`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url: path, headers })).statusCode).toBe(200);
    }

    const { db } = t.context;
    const statements = (
      await sql<{ name: string; statement: string; parameters: number }>`
      select name, statement, cardinality(parameter_types) as parameters from pg_prepared_statements`.execute(db)
    ).rows;
    expect(statements.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    await sql`set plan_cache_mode = force_generic_plan`.execute(db);
    try {
      for (const { name, statement, parameters } of statements) {
        const nulls = sql.raw(Array.from({ length: parameters }, () => 'null').join(', '));
        const explained = await sql<{
          'QUERY PLAN': [{ Plan: PlanNode }];
        }>`explain (format json) execute ${sql.id(name)}${parameters > 0 ? sql`(${nulls})` : sql``}`.execute(db);
        for (const node of nodesOf(explained.rows[0]!['QUERY PLAN'][0].Plan)) {
          const scansGrowing = node['Node Type'] === 'Seq Scan' && GROWING.has(node['Relation Name'] ?? '');
          if (scansGrowing || LISTING.has(node['Index Name'] ?? ''))
            wrong.push(`${node['Node Type']} ${node['Relation Name'] ?? ''} ${node['Index Name'] ?? ''}: ${statement}`);
        }
      }
    } finally {
      await sql`set plan_cache_mode = auto`.execute(db);
    }
    expect(wrong).toEqual([]);
  });
});
