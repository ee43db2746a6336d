import type { LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/db/database.js';
import type { BrandCode } from '../../src/kernel/brands.js';
import { ACTION_TYPE_IDS, TRANSACTION_TYPE } from '../../src/policies/model.js';
import { policyDetailNumber } from '../../src/policies/policy-number.js';
import type { PolicyActionType } from '../../src/policies/schemas-detail.js';
import type { StatementSchema } from '../../src/statements/schemas.js';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { issuePolicyOf } from '../helpers/issued-policy.js';
import { issueRequest, testPartnerId } from '../policies/fixtures.js';
import { ensureTestUser } from '../helpers/auth.js';

export type { StatementSchema };

/**
 * Headers of partner A's (or B's) user of `brand` with a token signed at the app's current clock:
 * statements tests move the clock by weeks, past any cached token's expiry.
 */
export async function bearerNow(t: TestApp, brand: BrandCode, partner: 'A' | 'B' = 'A') {
  const { login, password } = await ensureTestUser(t, brand, partner);
  const response = await t.app.inject({
    method: 'POST',
    url: `/users/${brand}/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'password',
      client_id: 'API',
      username: login,
      password,
      customerInterfaceId: '8',
      userTypeId: '4',
    }).toString(),
  });
  if (response.statusCode !== 200) throw new Error(`token endpoint answered ${response.statusCode} ${response.body}`);
  return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
}

/** GET a statements URL as partner A (or B) of `brand`, with `accept` when given. */
export async function getStatements(
  t: TestApp,
  path: string,
  options: { brand?: BrandCode; partner?: 'A' | 'B'; accept?: string } = {},
): Promise<LightMyRequestResponse> {
  const brand = options.brand ?? 'brandau';
  const headers = {
    ...(await bearerNow(t, brand, options.partner ?? 'A')),
    ...(options.accept ? { accept: options.accept } : {}),
  };
  return t.app.inject({ method: 'GET', url: `/partners/v1/${brand}/statements${path}`, headers });
}

/** The money of an on-account change written by `onAccountChange`, minor units (negative: refunded). */
export interface ChangeMoney {
  readonly premium: number;
  readonly taxes: readonly { readonly name: string; readonly amount: number }[];
  readonly fee?: number;
}

/**
 * Writes an on-account amendment or cancellation of a policy as its transaction rows (the next
 * detail, its money, the header's sequence), committed at `at`: on-account changes through the API
 * are another helper's work, and a statement reads only these rows.
 */
export async function onAccountChange(
  db: Db,
  policyNumber: string,
  action: Exclude<PolicyActionType, 'Purchase'>,
  at: string,
  money: ChangeMoney,
): Promise<string> {
  const header = await db
    .selectFrom('policy_header')
    .select(['id', 'sequence_number'])
    .where('policy_number', '=', policyNumber)
    .executeTakeFirstOrThrow();
  const last = await db
    .selectFrom('policy_detail')
    .selectAll()
    .where('policy_header_id', '=', header.id)
    .where('sequence_number', '=', header.sequence_number)
    .executeTakeFirstOrThrow();
  const sequence = header.sequence_number + 1;
  const number = policyDetailNumber(policyNumber, sequence);
  const { id: _id, ...copied } = last;
  const detail = await db
    .insertInto('policy_detail')
    .values({
      ...copied,
      sequence_number: sequence,
      policy_detail_number: number,
      action_type: action,
      action_type_id: ACTION_TYPE_IDS[action],
      payment_method: 'ON_ACCOUNT',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('policy_header').set({ sequence_number: sequence }).where('id', '=', header.id).execute();
  const rows = [
    { transaction_type_id: TRANSACTION_TYPE.Premium, name: null, amount_minor: money.premium },
    ...money.taxes.map((t) => ({ transaction_type_id: TRANSACTION_TYPE.Tax, name: t.name, amount_minor: t.amount })),
    ...(money.fee
      ? [{ transaction_type_id: TRANSACTION_TYPE.Fee, name: `${action} fee`, amount_minor: money.fee }]
      : []),
  ];
  await db
    .insertInto('policy_financial_value')
    .values(
      rows.map((row) => ({
        ...row,
        policy_header_id: header.id,
        policy_detail_id: detail.id,
        option_type_id: null,
        traveller_guid: null,
        dependent_guid: null,
      })),
    )
    .execute();
  return number;
}

/** RFC 4180 CSV back into rows of fields (quoted fields, doubled quotes, CRLF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Minor units of a major amount. */
export const minor = (major: number) => Math.round(major * 100);

/** Sums of a statement's transactions per method, minor units, as the test recomputes them. */
export function recomputedTotals(statement: StatementSchema) {
  return Object.fromEntries(
    ['CARD', 'ON_ACCOUNT'].map((method) => {
      const mine = statement.transactions.filter((l) => l.paymentMethod === method);
      const sum = (pick: (l: (typeof mine)[number]) => number) => mine.reduce((s, l) => s + minor(pick(l)), 0);
      const taxes = mine.reduce((s, l) => s + l.taxes.reduce((a, x) => a + minor(x.amount), 0), 0);
      const totals = {
        count: mine.length,
        premium: sum((l) => l.premium),
        discount: sum((l) => l.discount),
        taxes,
        donation: sum((l) => l.donation),
        fees: sum((l) => l.fees),
        total: sum((l) => l.total),
      };
      return [method, { ...totals, parts: totals.premium - totals.discount + taxes + totals.donation + totals.fees }];
    }),
  );
}

/** An on-account policy of partner A under brandau, issued through the purchase's issuing commit at `at`. */
export async function onAccountPolicy(t: TestApp, at: string) {
  const partnerId = await testPartnerId(t, 'brandau', 'A');
  return issuePolicyOf(t.context.db, issueRequest({ partnerId, paymentMethod: 'ON_ACCOUNT' }), new Date(at));
}

/** The month's statement of partner A (or B) under brandau, as JSON (200 expected). */
export async function statementOf(t: TestApp, month: string, partner: 'A' | 'B' = 'A') {
  const res = await getStatements(t, `/${month}`, { partner });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StatementSchema>();
}
