import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { PolicyIssueRequest } from '../../src/policies/issue-request.js';
import { prefixEnd } from '../../src/policy-search/repository.js';
import { findPolicies, type PolicySearch } from '../../src/policy-search/service.js';
import { queryPlanOf } from '../helpers/query-plan.js';
import { createTestDatabase, DIALECT, type TestDatabase } from '../helpers/database.js';
import { issue, issueRequest, PARTNER_IDS } from '../policies/fixtures.js';

/** A request whose primary traveller is `first surname <email>`, sold by partner A or B. */
function requestOf(first: string, surname: string, email: string, extra: Partial<PolicyIssueRequest> = {}) {
  const base = issueRequest(extra);
  const [primary, ...others] = base.travellers;
  return {
    ...base,
    travellers: [{ ...primary!, firstName: first, surname, emailAddress: email }, ...others],
  };
}

describe(`operators' policy search (${DIALECT})`, () => {
  let database: TestDatabase;
  const numbers: Record<string, string> = {};
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateToLatest(database.db);
    await database.db
      .insertInto('partner')
      .values([
        {
          id: PARTNER_IDS.A,
          code: 'PARTA',
          name: 'Partner A',
          status_code: 'ACTIVE',
          is_on_account_purchase_enabled: 0,
          is_demo: 0,
        },
        {
          id: PARTNER_IDS.B,
          code: 'PARTB',
          name: 'Partner B',
          status_code: 'ACTIVE',
          is_on_account_purchase_enabled: 0,
          is_demo: 0,
        },
      ])
      .execute();
    const people: [string, string, string, string, number][] = [
      ['grace', 'Grace', 'Hopper', 'Grace.Hopper@Example.com', PARTNER_IDS.A],
      ['gracie', 'Gracie', 'Hopkins', 'gracie@example.com', PARTNER_IDS.B],
      ['alan', 'Alan', 'Turing', 'alan@example.com', PARTNER_IDS.A],
      ['edsger', 'Edsger', 'Dijkstra', 'ed@example.com', PARTNER_IDS.B],
    ];
    for (const [key, first, surname, email, partnerId] of people) {
      const policy = await issue(
        database.db,
        requestOf(first, surname, email, { partnerId, bookingReference: `BK-${key.toUpperCase()}` }),
      );
      numbers[key] = policy.policyNumber;
    }
    for (let i = 0; i < 60; i += 1)
      await issue(database.db, requestOf('Many', `Smith${String(i)}`, `m${String(i)}@example.com`));
  });
  afterAll(async () => {
    await database.destroy();
  });

  const found = async (search: PolicySearch) =>
    (await findPolicies(database.db, search)).hits.map((h) => h.policyNumber);

  it('finds by policy number (exact), booking reference (exact) and partner code', async () => {
    expect(await found({ kind: 'policyNumber', policyNumber: numbers.alan! })).toEqual([numbers.alan]);
    expect(await found({ kind: 'policyNumber', policyNumber: numbers.alan!.slice(0, -1) })).toEqual([]);
    expect(await found({ kind: 'bookingReference', bookingReference: 'BK-GRACE' })).toEqual([numbers.grace]);
    expect(await found({ kind: 'bookingReference', bookingReference: 'bk-grace' })).toEqual([]);
    expect(await found({ kind: 'partnerCode', partnerCode: 'PARTB' })).toEqual([numbers.edsger, numbers.gracie]);
    expect(await found({ kind: 'partnerCode', partnerCode: 'NOBODY' })).toEqual([]);
  });

  it('finds by surname prefix and first name, case-insensitively, newest first', async () => {
    expect(await found({ kind: 'traveller', surname: 'hop' })).toEqual([numbers.gracie, numbers.grace]);
    expect(await found({ kind: 'traveller', surname: 'HOPPER' })).toEqual([numbers.grace]);
    expect(await found({ kind: 'traveller', surname: 'Hop', firstName: 'GRACIE' })).toEqual([numbers.gracie]);
    expect(await found({ kind: 'traveller', surname: 'hop', firstName: 'alan' })).toEqual([]);
    // Not a policy's traveller surname prefix: a dependent (Lovelace) is a traveller of every policy.
    expect(await found({ kind: 'traveller', surname: 'turingx' })).toEqual([]);
  });

  it('finds by e-mail, exactly but case-insensitively', async () => {
    expect(await found({ kind: 'email', email: 'grace.hopper@example.COM' })).toEqual([numbers.grace]);
    expect(await found({ kind: 'email', email: 'grace.hopper@example' })).toEqual([]);
  });

  it('shows who, whose and when, no health data', async () => {
    const [hit] = (await findPolicies(database.db, { kind: 'policyNumber', policyNumber: numbers.grace! })).hits;
    expect(hit).toEqual({
      policyHeaderId: expect.any(Number),
      policyNumber: numbers.grace,
      brandCode: 'brandau',
      partnerCode: 'PARTA',
      status: 'Active',
      issuedAt: expect.any(String),
      primaryTraveller: 'Grace Hopper',
      bookingReference: 'BK-GRACE',
    });
    expect(JSON.stringify(hit)).not.toMatch(/TAMIS|travelClear|isCovered/);
  });

  it('pages at most 50 at a time, by keyset', async () => {
    const first = await findPolicies(database.db, { kind: 'traveller', surname: 'smith' }, { limit: 500 });
    expect(first.hits).toHaveLength(50);
    expect(first.next).toBeDefined();
    const second = await findPolicies(database.db, { kind: 'traveller', surname: 'smith' }, { after: first.next! });
    expect(second.hits).toHaveLength(10);
    expect(second.next).toBeUndefined();
    const all = [...first.hits, ...second.hits].map((h) => h.policyHeaderId);
    expect(new Set(all).size).toBe(60);
    expect(all).toEqual([...all].sort((a, b) => b - a));
  });

  it('a prefix range ends after every string with that prefix', () => {
    expect(prefixEnd('smi')).toBe('smj');
    expect(prefixEnd('a\u{10ffff}')).toBe('b');
    expect(prefixEnd('\u{10ffff}')).toBeUndefined();
  });

  const planOf = (query: CompiledQuery) => queryPlanOf(database.db, query);

  it.each<[string, PolicySearch, string]>([
    ['policy number', { kind: 'policyNumber', policyNumber: 'X1' }, 'policy_number'],
    ['booking reference', { kind: 'bookingReference', bookingReference: 'BK-1' }, 'policy_header_booking_idx'],
    ['partner code', { kind: 'partnerCode', partnerCode: 'PARTA' }, 'policy_header_partner_id_idx'],
    ['surname', { kind: 'traveller', surname: 'hop' }, 'policy_traveller_name_idx'],
    ['surname and first name', { kind: 'traveller', surname: 'hop', firstName: 'gr' }, 'policy_traveller_name_idx'],
    ['e-mail', { kind: 'email', email: 'a@b.c' }, 'policy_traveller_email_idx'],
  ])('searching by %s finds its rows through an index', async (_, search, index) => {
    const nodes: RootOperationNode[] = [];
    const recording: KyselyPlugin = {
      transformQuery: (args) => (args.node.kind === 'SelectQueryNode' && nodes.push(args.node), args.node),
      transformResult: (args) => Promise.resolve(args.result),
    };
    await findPolicies(database.db.withPlugin(recording), search, { after: 1_000_000 });
    const query = database.db.getExecutor().compileQuery(nodes.at(-1)!, { queryId: 'plan' });
    const plan = await planOf(query);
    if (index !== 'policy_number') expect(plan, `${query.sql}\n${plan}`).toContain(index);
    if (DIALECT === 'postgres') {
      expect(plan, `${query.sql}\n${plan}`).not.toMatch(/Seq Scan/);
    } else {
      expect(plan, `${query.sql}\n${plan}`).not.toMatch(/\bSCAN (?!CONSTANT)/);
      expect(plan, query.sql).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
    }
  });
});
