import { randomUUID } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import type { Db, Tx } from '../../src/db/database.js';
import { dialectOf } from '../../src/db/dialect.js';
import { yearIn } from '../../src/kernel/calendar/zones.js';
import { ACTION_TYPE_IDS, POLICY_STATUS, TRANSACTION_TYPE } from '../../src/policies/model.js';
import {
  counterKeyOf,
  formatPolicyNumber,
  parsePolicyNumberFormat,
  policyDetailNumber,
} from '../../src/policies/policy-number.js';
import type { PoliciesTables } from '../../src/policies/tables.js';
import type { QuoteTable } from '../../src/quotes/tables.js';
import { drawBookingReference, drawEmail, drawSurname, FIRST_NAMES } from './people.js';
import { BRAND_PROFILES, DESTINATIONS, OPTIONS, type BrandProfile } from './profiles.js';

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

interface Partner {
  readonly id: number;
  readonly code: string;
  readonly userId: number;
}

type Row<T extends keyof PoliciesTables> = Insertable<PoliciesTables[T]>;
const json = (value: unknown) => JSON.stringify(value);
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

interface Spec {
  readonly profile: BrandProfile;
  readonly partner: Partner;
  readonly issuedAt: Date;
  readonly onAccount: boolean;
  readonly rand: () => number;
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

type Child<T extends 'policy_traveller' | 'policy_option' | 'policy_financial_value'> = Omit<
  Row<T>,
  'policy_header_id' | 'policy_detail_id'
>;

function buildPolicy(
  spec: Spec,
  plan: BrandProfile['plans'][number],
  policyNumber: string,
  pick: <T>(items: readonly T[]) => T,
) {
  const { profile, partner, issuedAt, rand } = spec;
  const at = issuedAt.toISOString();
  const departure = new Date(issuedAt.getTime() + Math.floor(rand() * 180) * DAY);
  const end = new Date(departure.getTime() + (plan.isAnnualMultiTrip ? 364 : 2 + Math.floor(rand() * 40)) * DAY);
  const destinations = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(DESTINATIONS)).filter(
    (d, i, all) => all.indexOf(d) === i,
  );
  const adults = 1 + Math.floor(rand() * 2);
  const children = rand() < 0.3 ? 1 + Math.floor(rand() * 2) : 0;
  // Travellers of a policy are often one family: later ones share the first one's surname.
  const familyName = drawSurname(rand);
  const person = (role: 'traveller' | 'dependent', index: number): Child<'policy_traveller'> => {
    const age = role === 'dependent' ? 1 + Math.floor(rand() * 17) : 18 + Math.floor(rand() * 70);
    const firstName = pick(FIRST_NAMES);
    const surname = index === 0 || rand() < 0.6 ? familyName : drawSurname(rand);
    return {
      role,
      guid: `${role}-${index + 1}`,
      display_order: index + 1,
      is_primary: role === 'traveller' && index === 0 ? 1 : 0,
      title: null,
      first_name: firstName,
      surname,
      age,
      email_address: index === 0 && role === 'traveller' ? drawEmail(rand, firstName, surname) : null,
      land_line_phone_number: null,
      mobile_number: null,
      date_of_birth: `${issuedAt.getUTCFullYear() - age - 1}-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}`,
      travel_clear_json: null,
    };
  };
  const people = [
    ...Array.from({ length: adults }, (_, i) => person('traveller', i)),
    ...Array.from({ length: children }, (_, i) => person('dependent', i)),
  ];
  const options = OPTIONS.filter(() => rand() < 0.3).map((o, i): Child<'policy_option'> => ({
    plan_id: plan.planId,
    option_type_id: o.optionTypeId,
    name: o.name,
    description: null,
    display_order: i + 1,
  }));
  const premium = 5_000 + Math.floor(rand() * 120_000) * adults;
  const discount = rand() < 0.2 ? Math.floor(premium / 10) : 0;
  const taxes = profile.taxes.map((t) => ({
    name: t.name,
    amount: Math.round(((premium - discount) * t.percent) / 100),
  }));
  const money = (type: number, amount: number, name: string | null = null): Child<'policy_financial_value'> => ({
    transaction_type_id: type,
    name,
    amount_minor: amount,
    option_type_id: null,
    traveller_guid: null,
    dependent_guid: null,
  });
  const quoteId = randomUUID();
  const { currency, ...planJson } = plan;
  const province = profile.home.provinces.length > 0 ? pick(profile.home.provinces) : undefined;
  const address = {
    addressLine1: `${1 + Math.floor(rand() * 300)} Example St`,
    postalCode: String(1000 + Math.floor(rand() * 8999)),
    provinceCode: province,
    countryCode: profile.home.countryCode,
    countryName: profile.home.countryName,
  };
  const header: Row<'policy_header'> = {
    policy_number: policyNumber,
    brand_code: profile.brandCode,
    partner_id: partner.id,
    customer_user_id: 0,
    quote_id: quoteId,
    plan_json: json(planJson),
    currency_json: json(currency),
    status_id: POLICY_STATUS.Active,
    status: 'Active',
    sequence_number: 1,
    presentation_time_zone_code: profile.zone,
    destination_region: destinations[0]!.region,
    destination_codes_json: json(destinations.map((d) => d.code)),
    destination_names_json: json(destinations.map((d) => d.name)),
    display_destination_description: destinations.map((d) => d.name).join(', '),
    reference_policy_wording_id: null,
    regulatory_wording_translation_name: null,
    binder_id: null,
    excess_minor: pick([0, 10_000, 25_000]),
    external_memberships_json: '[]',
    policy_document_access_guid: randomUUID(),
    booking_reference: drawBookingReference(rand),
    created_at: at,
    created_by_user_id: partner.userId,
    updated_at: at,
    updated_by_user_id: partner.userId,
  };
  const detail: Omit<Row<'policy_detail'>, 'policy_header_id'> = {
    sequence_number: 1,
    policy_detail_number: policyDetailNumber(policyNumber, 1),
    action_type_id: ACTION_TYPE_IDS.Purchase,
    action_type: 'Purchase',
    status_id: POLICY_STATUS.Active,
    status: 'Active',
    ip_address: '203.0.113.9',
    ip_address_country: profile.home.countryCode,
    user_agent: 'partner-site/1.0',
    departure_date: departure.toISOString().slice(0, 10),
    cover_end_date: end.toISOString().slice(0, 10),
    address_json: json(address),
    specified_items_json: '[]',
    adventure_level: null,
    adventure_activities_json: '[]',
    payment_reference: spec.onAccount ? null : `pay_${quoteId.slice(0, 8)}`,
    payment_method: spec.onAccount ? 'ON_ACCOUNT' : 'CARD',
    created_at: at,
    created_by_user_id: partner.userId,
    updated_at: at,
    updated_by_user_id: partner.userId,
  };
  const quote: Insertable<QuoteTable> = {
    public_id: quoteId,
    brand_code: profile.brandCode,
    partner_id: partner.id,
    partner_code: partner.code,
    stage: 'PAYMENT',
    quote_type: plan.isAnnualMultiTrip ? 'MULTITRIP' : 'SINGLETRIP',
    client_session_id: null,
    customer_user_id: 0,
    input_json: json({
      quoteType: plan.isAnnualMultiTrip ? 'MULTITRIP' : 'SINGLETRIP',
      planId: plan.planId,
      departureDate: detail.departure_date,
      returnDate: detail.cover_end_date,
      destinationCountryCodes: destinations.map((d) => d.code),
      policyHolders: people.map((p) => ({ guid: p.guid, age: p.age, isDependent: p.role === 'dependent' })),
    }),
    pricing_json: json({
      currencyCode: currency.code,
      priceResults: [],
      prices: [{ planId: plan.planId, totalPrice: premium - discount + taxes.reduce((s, t) => s + t.amount, 0) }],
    }),
    validation_json: json({ isValid: true, errors: [] }),
    client_info_json: null,
    priced_version: 'seeded',
    has_config_changed: 0,
    is_purchase_initiated: 1,
    is_purchased: 1,
    policy_number: policyNumber,
    revision: 1,
    evaluated_at: at,
    created_at: at,
    updated_at: at,
    created_by_user_id: partner.userId,
    created_by_username: 'seeded',
    updated_by_user_id: partner.userId,
    updated_by_username: 'seeded',
  };
  return {
    quote,
    header,
    detail,
    people,
    options,
    money: [
      money(TRANSACTION_TYPE.Premium, premium),
      money(TRANSACTION_TYPE.Discount, discount),
      ...taxes.map((t) => money(TRANSACTION_TYPE.Tax, t.amount, t.name)),
      money(TRANSACTION_TYPE.Donation, 0),
    ],
  };
}
