import { sql } from 'kysely';
import type { Db, Tx } from '../../src/db/database.js';
import { dialectOf } from '../../src/db/dialect.js';
import { yearIn } from '../../src/kernel/calendar/zones.js';
import { counterKeyOf, formatPolicyNumber, parsePolicyNumberFormat } from '../../src/policies/policy-number.js';
import type { PoliciesTables } from '../../src/policies/tables.js';
import { buildPolicy, type Partner, type Spec } from './policy-rows.js';
import { BRAND_PROFILES } from './profiles.js';

/**
 * Bulk policy seeding for scale benchmarks: N policies (each with its purchased quote) written
 * as multi-row inserts, one transaction per batch, numbers drawn from the real counters so that
 * policies issued later never collide. Rows have the shape issuance writes (see
 * src/policies/repository.ts), with variety in brand, partner, plan, dates, party and options.
 */
export interface SeedOptions {
  readonly count: number;
  readonly batchSize?: number;
  /** PRNG seed: the same seed gives the same variety (ids and guids stay random). */
  readonly seed?: number;
  readonly now?: Date;
  /** Only these partners' policies (codes; default every partner). */
  readonly partnerCodes?: readonly string[];
  /** Only these brands' policies (default every profile's). */
  readonly brandCodes?: readonly string[];
  /** Issued in [from, to) instead of over the last two years (a statement month's transactions). */
  readonly issuedBetween?: { readonly from: Date; readonly to: Date };
  /** The share of policies bought on account (`policy_detail.payment_method`), default none. */
  readonly onAccountShare?: number;
  onProgress?(done: number): void;
}

/** Rows per statement: stays under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const MAX_PARAMETERS = 30_000;
const DAY = 86_400_000;

/** mulberry32: small, fast, seedable. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export async function seedPolicies(db: Db, options: SeedOptions): Promise<void> {
  const partners = (await partnersOf(db)).filter((p) => !options.partnerCodes || options.partnerCodes.includes(p.code));
  const profiles = BRAND_PROFILES.filter((p) => !options.brandCodes || options.brandCodes.includes(p.brandCode));
  if (partners.length === 0)
    throw new Error(
      'no partners in this database: start the server once with DEMO_DATA=true, or create partners first',
    );
  // A larger page cache for this connection only (SQLite's default is 2 MB): index pages of
  // millions of rows stay in memory. Durability settings are untouched.
  if (dialectOf(db) === 'sqlite') await sql`pragma cache_size = -262144`.execute(db);
  const rand = random(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const now = options.now ?? new Date();
  // 1,000 policy headers (25 columns) stay under both engines' bound-parameter limits.
  const batchSize = Math.min(options.batchSize ?? 1000, 1000);
  let done = 0;
  while (done < options.count) {
    const size = Math.min(batchSize, options.count - done);
    const window = options.issuedBetween;
    const specs = Array.from({ length: size }, () => ({
      profile: pick(profiles),
      partner: pick(partners),
      // Issued over the last two years (or in the window asked), departing up to 180 days later.
      issuedAt: window
        ? new Date(window.from.getTime() + Math.floor(rand() * (window.to.getTime() - window.from.getTime())))
        : new Date(now.getTime() - Math.floor(rand() * 730 * DAY)),
      // Drawn only when asked, so a seed gives the variety it always gave.
      onAccount: options.onAccountShare ? rand() < options.onAccountShare : false,
      rand,
    }));
    await db.transaction().execute((tx) => insertBatch(tx, specs, pick));
    done += size;
    options.onProgress?.(done);
  }
}

async function partnersOf(db: Db): Promise<Partner[]> {
  const partners = await db.selectFrom('partner').select(['id', 'code']).orderBy('id').execute();
  const users = await db.selectFrom('app_user').select(['id', 'partner_id']).orderBy('id').execute();
  return partners.map((p) => ({ id: p.id, code: p.code, userId: users.find((u) => u.partner_id === p.id)?.id ?? 0 }));
}

/** Reserves `n` consecutive values of a counter in one statement; returns the first. */
async function reserve(tx: Tx, key: { prefix: string; country: string; year: number }, n: number): Promise<number> {
  const row = await tx
    .insertInto('policy_number_counter')
    .values({ ...key, last_value: n })
    .onConflict((oc) =>
      oc
        .columns(['prefix', 'country', 'year'])
        .doUpdateSet({ last_value: sql<number>`${sql.ref('policy_number_counter.last_value')} + ${n}` }),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return row.last_value - n + 1;
}

async function insertChunked(
  tx: Tx,
  table: keyof PoliciesTables | 'quote',
  rows: Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Object.keys(rows[0] ?? {}).length));
  for (let i = 0; i < rows.length; i += perStatement) {
    await tx
      .insertInto(table)
      .values(rows.slice(i, i + perStatement))
      .execute();
  }
}

async function insertBatch(tx: Tx, specs: Spec[], pick: <T>(items: readonly T[]) => T): Promise<void> {
  // Numbers first: one counter reservation per (prefix, country, year) in the batch.
  const planned = specs.map((spec) => {
    const plan = pick(spec.profile.plans);
    const format = parsePolicyNumberFormat(plan.policyNumberFormat);
    const parts = {
      prefix: plan.policyNumberPrefix,
      country: plan.jurisdictionCountryCode,
      year: yearIn(spec.issuedAt, spec.profile.zone),
    };
    return { spec, plan, format, parts, key: counterKeyOf(format, parts) };
  });
  const groups = new Map<string, typeof planned>();
  for (const p of planned) {
    const id = `${p.key.prefix}|${p.key.country}|${p.key.year}`;
    groups.set(id, [...(groups.get(id) ?? []), p]);
  }
  const numbered: ((typeof planned)[number] & { policyNumber: string })[] = [];
  for (const group of groups.values()) {
    const first = await reserve(tx, group[0]!.key, group.length);
    group.forEach((p, i) => numbered.push({ ...p, policyNumber: formatPolicyNumber(p.format, p.parts, first + i) }));
  }

  const policies = numbered.map((p) => buildPolicy(p.spec, p.plan, p.policyNumber, pick));
  await insertChunked(
    tx,
    'quote',
    policies.map((p) => p.quote),
  );
  const headers = await tx
    .insertInto('policy_header')
    .values(policies.map((p) => p.header))
    .returning(['id', 'policy_number'])
    .execute();
  const headerIds = new Map(headers.map((row) => [row.policy_number, row.id]));
  const details = await tx
    .insertInto('policy_detail')
    .values(policies.map((p) => ({ ...p.detail, policy_header_id: headerIds.get(p.header.policy_number)! })))
    .returning(['id', 'policy_header_id'])
    .execute();
  const detailOf = new Map(details.map((d) => [d.policy_header_id, d.id]));
  const ids = (p: (typeof policies)[number]) => {
    const headerId = headerIds.get(p.header.policy_number)!;
    return { policy_header_id: headerId, policy_detail_id: detailOf.get(headerId)! };
  };
  await insertChunked(
    tx,
    'policy_traveller',
    policies.flatMap((p) => p.people.map((row) => ({ ...row, ...ids(p) }))),
  );
  await insertChunked(
    tx,
    'policy_option',
    policies.flatMap((p) => p.options.map((row) => ({ ...row, ...ids(p) }))),
  );
  await insertChunked(
    tx,
    'policy_financial_value',
    policies.flatMap((p) => p.money.map((row) => ({ ...row, ...ids(p) }))),
  );
}
