// The statement rows' month: 10,000 transactions of the demo partner under brandau, committed in
// the month before this one (Australia/Sydney), seeded straight into the policy tables (half of
// them on account) once per bench database, then read through the API as JSON or CSV.
import { loadConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { monthOf, monthsAfter, statementMonth } from '../src/statements/months.js';
import { BRAND, bearer } from './scenario.js';
import type { BenchApi, BenchRequest } from './requests.js';
import { FIXTURE_PARTNER } from './seed/database.js';
import { seedPolicies } from './seed/policies.js';

export const STATEMENT_TRANSACTIONS = 10_000;
const ZONE = 'Australia/Sydney';

/** The last closed month, holding at least STATEMENT_TRANSACTIONS of the fixture partner's transactions. */
async function seededMonth(env: Record<string, string>): Promise<string> {
  const month = monthsAfter(monthOf(new Date(), ZONE), -1);
  const { from, to } = statementMonth(month, ZONE, new Date());
  const db = connectDatabase(loadConfig({ ...process.env, ...env }).database);
  try {
    const partner = await db
      .selectFrom('partner')
      .select('id')
      .where('code', '=', FIXTURE_PARTNER)
      .executeTakeFirstOrThrow();
    const row = await db
      .selectFrom('policy_detail as d')
      .innerJoin('policy_header as h', 'h.id', 'd.policy_header_id')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('d.created_at', '>=', from)
      .where('d.created_at', '<', to)
      .where('h.partner_id', '=', partner.id)
      .where('h.brand_code', '=', BRAND)
      .executeTakeFirstOrThrow();
    const missing = STATEMENT_TRANSACTIONS - Number(row.n);
    if (missing > 0)
      await seedPolicies(db, {
        count: missing,
        partnerCodes: [FIXTURE_PARTNER],
        brandCodes: [BRAND],
        issuedBetween: { from: new Date(from), to: new Date(to) },
        onAccountShare: 0.5,
      });
    return month;
  } finally {
    await db.destroy();
  }
}

/** GET the seeded month's statement in `accept`'s representation. */
export async function statementRequest(
  api: BenchApi,
  env: Record<string, string>,
  accept: 'application/json' | 'text/csv',
): Promise<BenchRequest> {
  const month = await seededMonth(env);
  const request: BenchRequest = {
    method: 'GET',
    path: `/partners/v1/${BRAND}/statements/${month}`,
    headers: { ...(await bearer(api)), accept },
  };
  const answer = await api.call(request);
  if (answer.status !== 200) throw new Error(`statement: ${answer.status} ${answer.body.slice(0, 300)}`);
  return request;
}
