import type { Executor } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { QuoteRow, QuoteRowUpdate } from './tables.js';
import type { StoredQuote, QuoteRecord } from './stored-quote.js';

/**
 * Every query of the `quote` table, in two files: the quotes area's own here (insert, read,
 * revise), a purchase's changes to a quote (claim, release, bought) in repository-purchase.ts.
 * Rows stay in these two files; callers see `StoredQuote`.
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

/** Whether each quote is bought or being bought, and when it last changed; unknown quotes are absent. */
export async function purchaseStatesOfQuotes(
  db: Executor,
  publicIds: readonly string[],
): Promise<Map<string, { readonly buying: boolean; readonly bought: boolean; readonly updatedAt: string }>> {
  if (publicIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('quote')
    .select(['public_id', 'is_purchase_initiated', 'is_purchased', 'updated_at'])
    .where('public_id', 'in', [...publicIds])
    .execute();
  return new Map(
    rows.map((r) => [
      r.public_id,
      { buying: r.is_purchase_initiated === 1, bought: r.is_purchased === 1, updatedAt: r.updated_at },
    ]),
  );
}
