import { sql } from 'kysely';
import { loadConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import type { SearchKind } from '../src/policy-search/service.js';
import type { RequestSupply } from './requests.js';

// What an operator types into the console's policy search, drawn from the stored policies so
// that each search finds what it would in life (a number or a reference: one policy; a surname:
// a family's and its namesakes'; a partner: its newest policies).

export type SearchTerms = Readonly<Record<SearchKind, readonly string[]>>;

/** Up to `count` terms of each kind, from policies spread over the whole table. */
export async function sampleSearchTerms(env: Record<string, string>, count: number): Promise<SearchTerms> {
  const db = connectDatabase(loadConfig({ ...process.env, ...env }).database);
  try {
    const range = await db
      .selectFrom('policy_header')
      .select([sql<number | string>`min(id)`.as('low'), sql<number | string>`max(id)`.as('high')])
      .executeTakeFirst();
    const low = Number(range?.low ?? 0);
    const high = Number(range?.high ?? 0);
    // Evenly spread ids (deterministic): old and new policies alike.
    const ids = Array.from({ length: count }, (_, i) => low + Math.floor(((high - low) * (i + 0.5)) / count));
    const headers = await db
      .selectFrom('policy_header')
      .select(['id', 'policy_number', 'booking_reference'])
      .where('id', 'in', ids.length > 0 ? ids : [-1])
      .execute();
    const primaries = await db
      .selectFrom('policy_traveller')
      .select(['surname', 'email_address'])
      .where(
        'policy_header_id',
        'in',
        headers.map((h) => h.id),
      )
      .where('is_primary', '=', 1)
      .execute();
    const partners = await db.selectFrom('partner').select('code').orderBy('id').execute();
    const present = <T>(values: (T | null | undefined)[]) =>
      values.filter((v): v is T => v !== null && v !== undefined);
    return {
      policyNumber: headers.map((h) => h.policy_number),
      traveller: present(primaries.map((p) => p.surname)),
      email: present(primaries.map((p) => p.email_address)),
      // A search for a reference nobody has finds nothing: still a search the page answers.
      bookingReference: withFallback(present(headers.map((h) => h.booking_reference)), 'NO-SUCH-REF'),
      partnerCode: partners.map((p) => p.code),
    };
  } finally {
    await db.destroy();
  }
}

const withFallback = (values: string[], fallback: string) => (values.length > 0 ? values : [fallback]);

/** The search page's path for one term. */
export const searchPath = (kind: SearchKind, term: string): string =>
  `/console/policies?by=${kind}&q=${encodeURIComponent(term)}`;

/** Requests that go round `paths` for as long as the load lasts (reads: repeating one is fine). */
export function cyclingSupply(paths: readonly string[]): RequestSupply {
  if (paths.length === 0) throw new Error('cyclingSupply: no paths');
  let sent = 0;
  return {
    next: () => ({ path: paths[sent++ % paths.length]! }),
    size: paths.length,
    get used() {
      return Math.min(sent, paths.length);
    },
    exhausted: 0,
  };
}
