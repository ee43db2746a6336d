import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import type { PolicyHit, PolicySearch } from './model.js';

/**
 * The search's queries: each finds its policies through an index at any number of policies
 * (migration 20261205_1300): the unique number, the booking reference, (partner, id), and the
 * travellers' lower-cased surname, first name and e-mail. PostgreSQL compares the name prefixes
 * in byte order (`collate "C"`, as indexed) so a range is exactly a prefix.
 */

/**
 * Lower case as the engine's `lower()` does it: SQLite's lowers ASCII letters only, so the value
 * searched for is lowered the same way there (names with other letters match as typed).
 */
function lowered(db: Executor, text: string): string {
  return dialectOf(db) === 'postgres' ? text.toLowerCase() : text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** The first string after every string that starts with `prefix`, in code point order (undefined: none). */
export function prefixEnd(prefix: string): string | undefined {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = (points.pop() as string).codePointAt(0) as number;
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last + 1 === 0xd800 ? 0xe000 : last + 1);
  }
  return undefined;
}

/** `lower(column)` starts with `prefix` (already lowered): a range on the expression index. */
function startsWith(db: Executor, column: string, prefix: string): Expression<SqlBool> {
  const expression =
    dialectOf(db) === 'postgres' ? sql`lower(${sql.ref(column)}) collate "C"` : sql`lower(${sql.ref(column)})`;
  const end = prefixEnd(prefix);
  return end === undefined
    ? sql<SqlBool>`${expression} >= ${prefix}`
    : sql<SqlBool>`${expression} >= ${prefix} and ${expression} < ${end}`;
}

/** The ids of matching policies, newest first, below `before`, `limit` of them. */
function matching(db: Executor, search: PolicySearch, partnerId: number | undefined) {
  let query = db.selectFrom('policy_header as h').select('h.id');
  switch (search.kind) {
    case 'policyNumber':
      query = query.where('h.policy_number', '=', search.policyNumber);
      break;
    case 'bookingReference':
      query = query.where('h.booking_reference', '=', search.bookingReference);
      break;
    case 'partnerCode':
      query = query.where('h.partner_id', '=', partnerId ?? -1);
      break;
    case 'email': {
      const email = lowered(db, search.email);
      query = query.where('h.id', 'in', (eb) =>
        eb
          .selectFrom('policy_traveller as t')
          .select('t.policy_header_id')
          .where(sql<SqlBool>`lower(${sql.ref('t.email_address')}) = ${email}`),
      );
      break;
    }
    case 'traveller': {
      const { surname, firstName } = search;
      query = query.where('h.id', 'in', (eb) => {
        let names = eb
          .selectFrom('policy_traveller as t')
          .select('t.policy_header_id')
          .where(startsWith(db, 't.surname', lowered(db, surname)));
        if (firstName) names = names.where(startsWith(db, 't.first_name', lowered(db, firstName)));
        return names;
      });
      break;
    }
  }
  return query;
}

/**
 * A page of policies matching `search`, newest first (by id), with ids below `before`; `limit`
 * rows at most. `partnerId` is the partner code's id for a partner search (undefined: unknown code).
 */
export async function searchPolicies(
  db: Executor,
  search: PolicySearch,
  page: { limit: number; before?: number; partnerId?: number },
): Promise<PolicyHit[]> {
  let ids = matching(db, search, page.partnerId);
  if (page.before !== undefined) ids = ids.where('h.id', '<', page.before);
  const rows = await db
    .selectFrom('policy_header as h')
    .leftJoin('partner as p', 'p.id', 'h.partner_id')
    .select([
      'h.id',
      'h.policy_number',
      'h.brand_code',
      'h.status',
      'h.created_at',
      'h.booking_reference',
      'p.code as partner_code',
    ])
    .select((eb) =>
      eb
        .selectFrom('policy_traveller as t')
        .innerJoin('policy_detail as d', 'd.id', 't.policy_detail_id')
        .select(sql<string>`${sql.ref('t.first_name')} || ' ' || ${sql.ref('t.surname')}`.as('name'))
        .whereRef('d.policy_header_id', '=', 'h.id')
        .whereRef('d.sequence_number', '=', 'h.sequence_number')
        .where('t.is_primary', '=', 1)
        .limit(1)
        .as('primary_traveller'),
    )
    .where('h.id', 'in', ids.orderBy('h.id', 'desc').limit(page.limit))
    .orderBy('h.id', 'desc')
    .execute();
  return rows.map((row) => ({
    policyHeaderId: row.id,
    policyNumber: row.policy_number,
    brandCode: row.brand_code,
    partnerCode: row.partner_code ?? '',
    status: row.status,
    issuedAt: row.created_at,
    primaryTraveller: row.primary_traveller ?? '',
    ...(row.booking_reference === null ? {} : { bookingReference: row.booking_reference }),
  }));
}
