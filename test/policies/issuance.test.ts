import { describe, expect, it } from 'vitest';
import { InvalidPolicyIssue, PolicyAlreadyIssued } from '../../src/policies/errors.js';
import { DIALECT } from '../helpers/database.js';
import { storeQuoteOf } from '../helpers/issued-policy.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { issue, issueRequest } from './fixtures.js';

describe(`policy issuance (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();
  const db = () => database.db;

  it('writes the header, detail #1, travellers, dependents, options and money', async () => {
    const request = issueRequest();
    const issued = await issue(db(), request);
    expect(issued.policyNumber).toMatch(/^TIAU26\d{7}$/);
    expect(issued.policyDetailNumber).toBe(`${issued.policyNumber}-1`);
    expect(issued.policyDocumentAccessGuid).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const header = await db()
      .selectFrom('policy_header')
      .selectAll()
      .where('id', '=', issued.policyHeaderId)
      .executeTakeFirstOrThrow();
    expect(header).toMatchObject({
      policy_number: issued.policyNumber,
      brand_code: 'brandau',
      partner_id: request.partnerId,
      customer_user_id: 501,
      quote_id: request.quoteId,
      status: 'Active',
      status_id: 1,
      sequence_number: 1,
      presentation_time_zone_code: 'Australia/Sydney',
      excess_minor: 10_000,
      policy_document_access_guid: issued.policyDocumentAccessGuid,
      created_at: '2026-11-22T21:53:09.123Z',
      created_by_user_id: 77,
    });
    const details = await db()
      .selectFrom('policy_detail')
      .selectAll()
      .where('policy_header_id', '=', issued.policyHeaderId)
      .execute();
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({
      id: issued.policyDetailId,
      sequence_number: 1,
      policy_detail_number: issued.policyDetailNumber,
      action_type: 'Purchase',
      action_type_id: 1,
      status: 'Active',
      departure_date: '2026-12-01',
      cover_end_date: '2026-12-14',
      payment_reference: 'pay_123',
      ip_address: '203.0.113.9',
    });
    const people = await db()
      .selectFrom('policy_traveller')
      .selectAll()
      .where('policy_detail_id', '=', issued.policyDetailId)
      .orderBy('id')
      .execute();
    expect(people.map((p) => [p.role, p.guid, p.display_order, p.is_primary])).toEqual([
      ['traveller', 'trav-1', 1, 1],
      ['traveller', 'trav-2', 2, 0],
      ['dependent', 'dep-1', 1, 0],
    ]);
    const options = await db()
      .selectFrom('policy_option')
      .select(['name', 'option_type_id', 'plan_id'])
      .where('policy_detail_id', '=', issued.policyDetailId)
      .execute();
    expect(options).toEqual([
      { name: 'Cruise cover', option_type_id: 4, plan_id: 31 },
      { name: 'Specified items', option_type_id: 9, plan_id: 31 },
    ]);
    const money = await db()
      .selectFrom('policy_financial_value')
      .select(['transaction_type_id', 'name', 'amount_minor'])
      .where('policy_detail_id', '=', issued.policyDetailId)
      .orderBy('id')
      .execute();
    expect(money).toEqual([
      { transaction_type_id: 1, name: null, amount_minor: 32_000 },
      { transaction_type_id: 2, name: null, amount_minor: 2_000 },
      { transaction_type_id: 3, name: 'GST', amount_minor: 3_000 },
      { transaction_type_id: 3, name: 'Stamp duty', amount_minor: 1_500 },
      { transaction_type_id: 4, name: null, amount_minor: 200 },
    ]);
  });

  it('numbers policies sequentially per prefix, country and local year', async () => {
    const plan = (prefix: string, country: string) => ({
      ...issueRequest().plan,
      policyNumberPrefix: prefix,
      jurisdictionCountryCode: country,
    });
    const a1 = await issue(db(), issueRequest({ plan: plan('QA', 'AU') }));
    const a2 = await issue(db(), issueRequest({ plan: plan('QA', 'AU') }));
    const n1 = await issue(db(), issueRequest({ plan: plan('QA', 'nz') }));
    // 23:30 on 31 December in UTC is already the next year in Sydney.
    const nextYear = await issue(db(), issueRequest({ plan: plan('QA', 'AU') }), new Date('2026-12-31T23:30:00Z'));
    expect([a1.policyNumber, a2.policyNumber, n1.policyNumber, nextYear.policyNumber]).toEqual([
      'QAAU260000001',
      'QAAU260000002',
      'QANZ260000001',
      'QAAU270000001',
    ]);
    const custom = await issue(
      db(),
      issueRequest({ plan: { ...plan('ZZ', 'AU'), policyNumberFormat: 'P-{yyyy}-{country}/{seq:4}' } }),
    );
    expect(custom.policyNumber).toBe('P-2026-AU/0001');
  });

  it('hands out no number when the issuing commit rolls back', async () => {
    const plan = { ...issueRequest().plan, policyNumberPrefix: 'RB' };
    // Another purchase bought the quote meanwhile: the commit is refused after (SQLite) or before
    // (PostgreSQL) it takes a number, and takes none.
    const request = issueRequest({ plan });
    await storeQuoteOf(db(), request, '2026-11-22T00:00:00.000Z');
    await db().updateTable('quote').set({ is_purchased: 1 }).where('public_id', '=', request.quoteId).execute();
    await expect(issue(db(), request)).rejects.toThrow(PolicyAlreadyIssued);
    expect((await issue(db(), issueRequest({ plan }))).policyNumber).toBe('RBAU260000001');
    expect(
      await db().selectFrom('policy_header').select('id').where('policy_number', 'like', 'RB%').execute(),
    ).toHaveLength(1);
  });

  it('issues a quote once, and the refused attempt takes no number', async () => {
    const plan = { ...issueRequest().plan, policyNumberPrefix: 'IO' };
    const request = issueRequest({ plan });
    await issue(db(), request);
    await expect(issue(db(), { ...request })).rejects.toThrow(PolicyAlreadyIssued);
    expect((await issue(db(), issueRequest({ plan }))).policyNumber).toBe('IOAU260000002');
  });

  it('writes a counter wider than its format in full', async () => {
    const plan = { ...issueRequest().plan, policyNumberPrefix: 'WD', policyNumberFormat: '{prefix}-{seq:2}-{yy}' };
    expect((await issue(db(), issueRequest({ plan }))).policyNumber).toBe('WD-01-26');
    await db().updateTable('policy_number_counter').set({ last_value: 99 }).where('prefix', '=', 'WD').execute();
    const wide = await issue(db(), issueRequest({ plan }));
    expect(wide.policyNumber).toBe('WD-100-26');
    expect(wide.policyDetailNumber).toBe('WD-100-26-1');
    const stored = await db()
      .selectFrom('policy_detail')
      .select('policy_detail_number')
      .where('id', '=', wide.policyDetailId)
      .executeTakeFirstOrThrow();
    expect(stored.policy_detail_number).toBe('WD-100-26-1');
  });

  it('refuses an invalid request before writing anything', async () => {
    const before = await db()
      .selectFrom('policy_header')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const bad = [
      issueRequest({ presentationTimeZoneCode: 'Mars/Olympus' }),
      issueRequest({ coverEndDate: '2026-11-30' }),
      issueRequest({ amounts: { ...issueRequest().amounts, total: 1 } }),
      issueRequest({ plan: { ...issueRequest().plan, policyNumberFormat: '{prefix}{country}' } }),
    ];
    for (const request of bad) await expect(issue(db(), request)).rejects.toThrow(InvalidPolicyIssue);
    const after = await db()
      .selectFrom('policy_header')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});
