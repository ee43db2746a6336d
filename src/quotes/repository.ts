import type { QueryCreator } from 'kysely';
import type { Database, Executor } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { QuoteRow, QuoteRowUpdate } from './tables.js';
import type { StoredQuote, QuoteRecord } from './stored-quote.js';

/**
 * Every query of the `quote` table: the quotes area's own (insert, read, revise) and the purchase's
 * changes to a quote's lifecycle (claim, release, bought). Rows stay here; callers see `StoredQuote`.
 */

/** The values of a row's JSON columns. */
type StoredJson = Pick<StoredQuote, 'input' | 'pricing' | 'validation' | 'clientInfo'>;

function parseJson(row: Omit<QuoteRow, 'id'>): StoredJson {
  return {
    input: JSON.parse(row.input_json) as StoredQuote['input'],
    pricing: JSON.parse(row.pricing_json) as StoredQuote['pricing'],
    validation: JSON.parse(row.validation_json) as StoredQuote['validation'],
    clientInfo:
      row.client_info_json === null ? undefined : (JSON.parse(row.client_info_json) as StoredQuote['clientInfo']),
  };
}

function toStored(row: Omit<QuoteRow, 'id'>, json: StoredJson = parseJson(row)): StoredQuote {
  return {
    id: row.public_id,
    brandCode: row.brand_code,
    partnerId: row.partner_id,
    partnerCode: row.partner_code,
    stage: row.stage as StoredQuote['stage'],
    clientSessionId: row.client_session_id ?? undefined,
    customerUserId: row.customer_user_id,
    input: json.input,
    pricing: json.pricing,
    validation: json.validation,
    clientInfo: json.clientInfo,
    pricedVersion: row.priced_version,
    hasConfigChanged: row.has_config_changed === 1,
    isPurchaseInitiated: row.is_purchase_initiated === 1,
    isPurchased: row.is_purchased === 1,
    policyNumber: row.policy_number ?? undefined,
    revision: row.revision,
    evaluatedAt: row.evaluated_at,
    audit: {
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      createdByUserId: row.created_by_user_id,
      createdByUsername: row.created_by_username,
      updatedByUserId: row.updated_by_user_id,
      updatedByUsername: row.updated_by_username,
    },
  };
}

type OwnerColumns =
  | 'public_id'
  | 'brand_code'
  | 'partner_id'
  | 'partner_code'
  | 'created_at'
  | 'created_by_user_id'
  | 'created_by_username';
type LifecycleColumns = 'id' | 'is_purchase_initiated' | 'is_purchased' | 'policy_number' | 'revision';

/** The columns an evaluation writes. */
function columns(record: QuoteRecord): Omit<QuoteRow, OwnerColumns | LifecycleColumns> {
  return {
    stage: record.stage,
    quote_type: record.input.quoteType ?? 'SINGLETRIP',
    client_session_id: record.clientSessionId ?? null,
    customer_user_id: record.customerUserId,
    input_json: JSON.stringify(record.input),
    pricing_json: JSON.stringify(record.pricing),
    validation_json: JSON.stringify(record.validation),
    client_info_json: record.clientInfo === undefined ? null : JSON.stringify(record.clientInfo),
    priced_version: record.pricedVersion,
    has_config_changed: record.hasConfigChanged ? 1 : 0,
    evaluated_at: record.evaluatedAt,
    updated_at: record.audit.updatedAt,
    updated_by_user_id: record.audit.updatedByUserId,
    updated_by_username: record.audit.updatedByUsername,
  };
}

/**
 * Stores a new quote and returns it as stored. Every column but the internal id is written here,
 * so the answer is built from what was written instead of reading the row back and parsing its
 * JSON text again. Its JSON values are the record's own (not copies): they serialise exactly as
 * the stored text reads back (JSON and the response serialiser both leave out undefined members
 * and write -0 as 0), and a copy of ~10 KB of prices cost ~25 µs per quote.
 */
export async function insertQuote(
  db: Executor,
  record: QuoteRecord & { id: string; brandCode: string; partnerId: number; partnerCode: string },
): Promise<StoredQuote> {
  const row = Object.assign(columns(record), {
    public_id: record.id,
    brand_code: record.brandCode,
    partner_id: record.partnerId,
    partner_code: record.partnerCode,
    created_at: record.audit.createdAt,
    created_by_user_id: record.audit.createdByUserId,
    created_by_username: record.audit.createdByUsername,
    is_purchase_initiated: 0,
    is_purchased: 0,
    policy_number: null,
    revision: 1,
  }) satisfies Omit<QuoteRow, 'id'>;
  await insertRow(db, row);
  return toStored(row, {
    input: record.input,
    pricing: record.pricing,
    validation: record.validation,
    clientInfo: record.clientInfo,
  });
}

type InsertedRow = Omit<QuoteRow, 'id'>;
const INSERTED_COLUMNS = [
  'public_id',
  'brand_code',
  'partner_id',
  'partner_code',
  'stage',
  'quote_type',
  'client_session_id',
  'customer_user_id',
  'input_json',
  'pricing_json',
  'validation_json',
  'client_info_json',
  'priced_version',
  'has_config_changed',
  'is_purchase_initiated',
  'is_purchased',
  'policy_number',
  'revision',
  'evaluated_at',
  'created_at',
  'updated_at',
  'created_by_user_id',
  'created_by_username',
  'updated_by_user_id',
  'updated_by_username',
] as const satisfies readonly (keyof InsertedRow)[];

// Both statements are built and compiled once per engine (db/reusable-query.ts): Kysely would
// otherwise rebuild and recompile the 25-column insert on every quote.
const insertRow = reusableQuery(INSERTED_COLUMNS, (db, row: InsertedRow) => db.insertInto('quote').values(row));
// By the unique id alone: with brand and partner in the where clause too, PostgreSQL planned a
// fresh table's read on the partner index (both looked like one row without statistics) and
// walked every quote of the partner on each read (docs/performance.md, "Index choice").
const selectQuote = reusableQuery(['id'], (db, v: { id: string }) =>
  db.selectFrom('quote').selectAll().where('public_id', '=', v.id),
);

/** The quote with this id if it belongs to this brand and partner; anything else is "not found". */
export async function findQuote(
  db: Executor,
  id: string,
  brandCode: string,
  partnerId: number,
): Promise<StoredQuote | undefined> {
  const [row] = (await selectQuote(db, { id })).rows;
  return row && row.brand_code === brandCode && row.partner_id === partnerId ? toStored(row) : undefined;
}

/** Writes a re-evaluation if nobody changed the quote since `revision` was read; false otherwise. */
export async function updateQuote(
  db: Executor,
  id: string,
  revision: number,
  record: QuoteRecord,
): Promise<StoredQuote | undefined> {
  const changes: QuoteRowUpdate = Object.assign(columns(record), { revision: revision + 1 });
  const row = await db
    .updateTable('quote')
    .set(changes)
    .where('public_id', '=', id)
    .where('revision', '=', revision)
    .where('is_purchased', '=', 0)
    .returningAll()
    .executeTakeFirst();
  return row ? toStored(row) : undefined;
}

/** A purchase's claim of a quote: only if nobody changed, claimed or bought it since `quote.revision` was read. */
export interface QuoteClaim {
  readonly quote: StoredQuote;
  /** The buyer's completed input, stored with the claim. */
  readonly input: StoredQuote['input'];
  readonly at: string;
}

/** The values of a claim's statement. */
export interface ClaimValues {
  readonly quoteId: string;
  readonly revision: number;
  readonly inputJson: string;
  readonly at: string;
}
export const CLAIM_NAMES = ['quoteId', 'revision', 'inputJson', 'at'] as const satisfies readonly (keyof ClaimValues)[];

export function claimValues({ quote, input, at }: QuoteClaim): ClaimValues {
  return { quoteId: quote.id, revision: quote.revision, inputJson: JSON.stringify(input), at };
}

/** The claim's update, on its own or as a CTE of the purchase's first statement (PostgreSQL). */
export function claimStatement(db: QueryCreator<Database>, claim: ClaimValues) {
  return (
    db
      .updateTable('quote')
      // revision + 1 is claim.revision + 1 (the where below); written so the statement compiles once.
      .set((eb) => ({
        is_purchase_initiated: 1,
        input_json: claim.inputJson,
        revision: eb('revision', '+', 1),
        updated_at: claim.at,
      }))
      .where('public_id', '=', claim.quoteId)
      .where('revision', '=', claim.revision)
      .where('is_purchase_initiated', '=', 0)
      .where('is_purchased', '=', 0)
  );
}

const claimRow = reusableQuery(CLAIM_NAMES, (db, claim: ClaimValues) => claimStatement(db, claim));

/** Claims the quote for a purchase; false when the claim lost (changed, claimed or bought meanwhile). */
export async function claimQuote(db: Executor, claim: QuoteClaim): Promise<boolean> {
  const result = await claimRow(db, claimValues(claim));
  return Number(result.numAffectedRows) === 1;
}

/** The quote as a successful claim left it. */
export function claimedQuote({ quote, input, at }: QuoteClaim): StoredQuote {
  return {
    ...quote,
    input,
    isPurchaseInitiated: true,
    revision: quote.revision + 1,
    audit: { ...quote.audit, updatedAt: at },
  };
}

/** Frees a quote whose purchase ended without a policy, so another card may be tried. */
export async function releaseQuote(db: Executor, quoteId: string, at: string): Promise<void> {
  await db
    .updateTable('quote')
    .set((eb) => ({ is_purchase_initiated: 0, revision: eb('revision', '+', 1), updated_at: at }))
    .where('public_id', '=', quoteId)
    .where('is_purchased', '=', 0)
    .execute();
}

/** The quote's row locked for the issuing commit while it is not bought (PostgreSQL: a CTE of that statement). */
export function lockUnboughtQuote(db: QueryCreator<Database>, quoteId: string) {
  return db
    .selectFrom('quote')
    .select('quote.public_id')
    .where('quote.public_id', '=', quoteId)
    .where('quote.is_purchased', '=', 0)
    .forUpdate();
}

/** What marking a quote bought writes besides its flags. */
export interface QuoteBought {
  readonly quoteId: string;
  readonly policyNumber: string;
  readonly at: string;
}

const markBought = reusableQuery(['quoteId', 'policyNumber', 'at'], (db, v: QuoteBought) =>
  db
    .updateTable('quote')
    .set((eb) => ({
      is_purchased: 1,
      is_purchase_initiated: 1,
      policy_number: v.policyNumber,
      stage: 'PAYMENT',
      revision: eb('revision', '+', 1),
      updated_at: v.at,
    }))
    .where('public_id', '=', v.quoteId)
    .where('is_purchased', '=', 0)
    .returning('revision'),
);

/** Marks the quote bought under its policy number; the new revision, or undefined when it was bought already. */
export async function markQuoteBought(db: Executor, bought: QuoteBought): Promise<number | undefined> {
  const [row] = (await markBought(db, bought)).rows;
  return row?.revision;
}

/**
 * PostgreSQL: marking the quote bought as a CTE of the issuing statement, the policy number read
 * from its `header` CTE (the number is taken in the same statement).
 */
export function markBoughtStatement(
  db: QueryCreator<Database & { header: { policy_number: string } }>,
  v: Omit<QuoteBought, 'policyNumber'>,
) {
  return db
    .updateTable('quote')
    .from('header')
    .set((eb) => ({
      is_purchased: 1,
      is_purchase_initiated: 1,
      policy_number: eb.ref('header.policy_number'),
      stage: 'PAYMENT',
      revision: eb('quote.revision', '+', 1),
      updated_at: v.at,
    }))
    .where('quote.public_id', '=', v.quoteId)
    .returning('quote.revision');
}

/** The quote as marking it bought left it: `claimed` (nothing else may change a claimed quote) under the new revision. */
export function boughtQuote(claimed: StoredQuote, bought: QuoteBought & { revision: number }): StoredQuote {
  return {
    ...claimed,
    stage: 'PAYMENT',
    isPurchaseInitiated: true,
    isPurchased: true,
    policyNumber: bought.policyNumber,
    revision: bought.revision,
    audit: { ...claimed.audit, updatedAt: bought.at },
  };
}

/** Whether the quote is bought (why an issuing statement's gate was closed). */
export async function isQuoteBought(db: Executor, quoteId: string): Promise<boolean> {
  const quote = await db.selectFrom('quote').select('is_purchased').where('public_id', '=', quoteId).executeTakeFirst();
  return quote?.is_purchased === 1;
}
