import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { findPolicy } from '../../src/policies/repository.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { issue, issueRequest, PARTNER_IDS } from './fixtures.js';
import { findPolicyFiveQueries } from './read-reference.js';

const base = issueRequest();
const [primary, second] = base.travellers;
const person = (i: number, withOptionals: boolean) => ({
  guid: `p-${i}`,
  firstName: `F${i}`,
  surname: `S${i}`,
  ...(withOptionals
    ? {
        title: 'Dr',
        age: 30 + i,
        dateOfBirth: '1990-01-01',
        emailAddress: `p${i}@example.com`,
        mobileNumber: '+61 400 000 001',
      }
    : {}),
});

/** Issue requests that vary what the read assembles: how many of each child row, which optional columns are null. */
const requests = fc.record({
  extraTravellers: fc.array(fc.boolean(), { maxLength: 2 }),
  dependents: fc.array(fc.boolean(), { maxLength: 3 }),
  options: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 4 }),
  taxes: fc.integer({ min: 0, max: 3 }),
  optionals: fc.boolean(),
  secondDetail: fc.boolean(),
});

/** Amounts with `taxes` tax lines that add up as issuance checks. */
function amounts(taxes: number) {
  const lines = Array.from({ length: taxes }, (_, i) => ({ name: `Tax ${i}`, amount: 100 * (i + 1) }));
  const { premium, discount, donation } = base.amounts;
  return {
    ...base.amounts,
    taxes: lines,
    total: premium - discount + donation + lines.reduce((s, t) => s + t.amount, 0),
  };
}

describe(`one-query policy read (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();

  it('reads the same policy the five-query read did', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (shape) => {
        const request = issueRequest({
          travellers: [
            shape.optionals ? primary! : { guid: 'trav-1', isPrimary: true, firstName: 'Ada', surname: 'Lovelace' },
            ...(shape.optionals ? [second!] : []),
            ...shape.extraTravellers.map((o, i) => person(10 + i, o)),
          ],
          dependents: shape.dependents.map((o, i) => person(20 + i, o)),
          options: shape.options.map((order, i) => ({
            optionTypeId: 100 + i,
            name: `Option ${i}`,
            ...(shape.optionals ? { description: `d${i}` } : {}),
            displayOrder: order,
          })),
          amounts: amounts(shape.taxes),
          ...(shape.optionals
            ? {}
            : {
                client: {},
                paymentReference: undefined,
                adventure: undefined,
                referencePolicyWordingId: undefined,
                binderId: undefined,
              }),
        });
        const issued = await issue(database.db, request);
        if (shape.secondDetail) await copyDetail(issued.policyDetailId);
        const lookup = { policyNumber: issued.policyNumber, brandCode: 'brandau' as const, partnerId: PARTNER_IDS.A };
        const expected = await findPolicyFiveQueries(database.db, lookup);
        expect(expected?.details.length).toBe(shape.secondDetail ? 2 : 1);
        expect(await findPolicy(database.db, lookup)).toStrictEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('finds nothing for another partner or brand', async () => {
    const issued = await issue(database.db, issueRequest());
    expect(
      await findPolicy(database.db, {
        policyNumber: issued.policyNumber,
        brandCode: 'brandau',
        partnerId: PARTNER_IDS.B,
      }),
    ).toBeUndefined();
    expect(
      await findPolicy(database.db, {
        policyNumber: issued.policyNumber,
        brandCode: 'brandnz',
        partnerId: PARTNER_IDS.A,
      }),
    ).toBeUndefined();
  });

  /** A later transaction of the policy (issuance writes only the first): a copy of detail 1 and its children. */
  async function copyDetail(detailId: number): Promise<void> {
    const db = database.db;
    const detail = await db
      .selectFrom('policy_detail')
      .selectAll()
      .where('id', '=', detailId)
      .executeTakeFirstOrThrow();
    const { id: _id, ...rest } = detail;
    const inserted = await db
      .insertInto('policy_detail')
      .values({
        ...rest,
        sequence_number: 2,
        policy_detail_number: `${rest.policy_detail_number}-2`,
        action_type: 'CANCEL',
        status: 'Cancelled',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const table of ['policy_traveller', 'policy_option', 'policy_financial_value'] as const) {
      const rows = await db.selectFrom(table).selectAll().where('policy_detail_id', '=', detailId).execute();
      for (const { id: _rowId, ...row } of rows)
        await db
          .insertInto(table)
          .values({ ...row, policy_detail_id: inserted.id })
          .execute();
    }
    await sql`select 1`.execute(db);
  }
});
