import { sql, type QueryCreator } from 'kysely';
import type { Database, Db, Executor } from '../db/database.js';
import { jsonRowColumns } from '../db/json-row.js';
import { dialectOf } from '../db/dialect.js';
import { reusableQuery, type ReusableQuery } from '../db/reusable-query.js';
import type { ChallengeInfo, Purchase, PurchaseState } from './model.js';
import type { NewPurchaseRow, PurchaseRow, PurchaseRowUpdate } from './tables.js';

/** Every query of the purchases area (the quote's purchase flags included). Rows stay here. */

type IssueRequest = Purchase['issueRequest'];

/** Every column but the internal id and the issue request (the largest, never changed after insert). */
export const STATE_COLUMNS = [
  'public_id', 'quote_id', 'brand_code', 'partner_id', 'user_id', 'state', 'amount_minor', 'currency', 'card_token', 'card_source',
  'payment_id', 'payment_result', 'decline_reason', 'three_ds_status', 'challenge_json', 'challenge_expires_at', 'policy_number',
  'created_at', 'updated_at',
] as const satisfies readonly (keyof PurchaseRow)[];

/** A row as read back: everything, or everything but the issue request when the caller holds it already. */
export type ReadRow = Omit<PurchaseRow, 'id' | 'issue_request_json'> & ({ issue_request_json: string } | { issue_request_json?: undefined });

export function toPurchase(row: ReadRow, known?: Purchase): Purchase {
  // The issue request is the largest column and only issuing reads it: parsed on first use
  // (every state change answers the row, and parsing it each time was a visible share of CPU).
  // It never changes after the insert, so a purchase in hand lends it to its next state.
  const json = row.issue_request_json;
  let issueRequest: IssueRequest | undefined;
  const readIssueRequest = (): IssueRequest => {
    if (json !== undefined) return (issueRequest ??= JSON.parse(json) as IssueRequest);
    if (!known) throw new Error('purchase row read without its issue request');
    return known.issueRequest;
  };
  return {
    id: row.public_id,
    quoteId: row.quote_id,
    brandCode: row.brand_code,
    partnerId: row.partner_id,
    userId: row.user_id,
    state: row.state as PurchaseState,
    amountMinor: row.amount_minor,
    currency: row.currency,
    cardToken: row.card_token,
    ...(row.card_source !== null ? { cardSource: row.card_source } : {}),
    ...(row.payment_id !== null ? { paymentId: row.payment_id } : {}),
    ...(row.payment_result !== null ? { paymentResult: row.payment_result } : {}),
    ...(row.decline_reason !== null ? { declineReason: row.decline_reason } : {}),
    ...(row.three_ds_status !== null ? { threeDSStatus: row.three_ds_status } : {}),
    ...(row.challenge_json !== null ? { challenge: JSON.parse(row.challenge_json) as ChallengeInfo } : {}),
    ...(row.challenge_expires_at !== null ? { challengeExpiresAt: row.challenge_expires_at } : {}),
    get issueRequest() {
      return readIssueRequest();
    },
    ...(row.policy_number !== null ? { policyNumber: row.policy_number } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What a state change may write besides the state. */
export interface PurchasePatch {
  paymentId?: string;
  paymentResult?: string;
  declineReason?: string | null;
  threeDSStatus?: string;
  challenge?: ChallengeInfo | null;
  challengeExpiresAt?: string | null;
  policyNumber?: string;
}

export function patchColumns(patch: PurchasePatch): PurchaseRowUpdate {
  const columns: PurchaseRowUpdate = {};
  if (patch.paymentId !== undefined) columns.payment_id = patch.paymentId;
  if (patch.paymentResult !== undefined) columns.payment_result = patch.paymentResult;
  if (patch.declineReason !== undefined) columns.decline_reason = patch.declineReason;
  if (patch.threeDSStatus !== undefined) columns.three_ds_status = patch.threeDSStatus;
  if (patch.challenge !== undefined) columns.challenge_json = patch.challenge === null ? null : JSON.stringify(patch.challenge);
  if (patch.challengeExpiresAt !== undefined) columns.challenge_expires_at = patch.challengeExpiresAt;
  if (patch.policyNumber !== undefined) columns.policy_number = patch.policyNumber;
  return columns;
}

/** The claim of a quote by a purchase: only if nobody changed, claimed or bought it since `revision` was read. */
export interface QuoteClaim {
  readonly quoteId: string;
  readonly revision: number;
  /** The buyer's completed input, stored with the claim. */
  readonly inputJson: string;
  readonly at: string;
}

function claimQuery(db: QueryCreator<Database>, claim: QuoteClaim) {
  return db
    .updateTable('quote')
    // revision + 1 is claim.revision + 1 (the where below); written so the query compiles once.
    .set((eb) => ({ is_purchase_initiated: 1, input_json: claim.inputJson, revision: eb('revision', '+', 1), updated_at: claim.at }))
    .where('public_id', '=', claim.quoteId)
    .where('revision', '=', claim.revision)
    .where('is_purchase_initiated', '=', 0)
    .where('is_purchased', '=', 0);
}

/**
 * Claims the quote and records the purchase, both or neither, before any gateway call. Undefined
 * when the claim lost. PostgreSQL does it in one statement (the insert reads the claim's
 * RETURNING), a single round trip where a transaction took four; SQLite in one transaction.
 */
export async function startPurchase(db: Db, claim: QuoteClaim, row: NewPurchaseRow & ReadRow): Promise<Purchase | undefined> {
  if (dialectOf(db) === 'postgres') {
    const result = await claimAndInsert(db, { ...claim, row: JSON.stringify(row) });
    return Number(result.numAffectedRows ?? 0) === 1 ? toPurchase(row) : undefined;
  }
  return db.transaction().execute(async (tx) => {
    const claimed = await claimQuote(tx, claim);
    if (Number(claimed.numAffectedRows) !== 1) return undefined;
    await insertPurchase(tx, row);
    return toPurchase(row);
  });
}

// The fixed-shape statements of a purchase, each built and compiled once per engine
// (db/reusable-query.ts): building and compiling them was ~10–25 µs each, per purchase.
const claimQuote = reusableQuery(['quoteId', 'revision', 'inputJson', 'at'], (db, claim: QuoteClaim) => claimQuery(db, claim));

type InsertedRow = Omit<PurchaseRow, 'id'>;
const INSERTED_COLUMNS = [...STATE_COLUMNS, 'issue_request_json'] as const satisfies readonly (keyof InsertedRow)[];
const insertPurchase = reusableQuery(INSERTED_COLUMNS, (db, row: InsertedRow) => db.insertInto('purchase').values(row));
// PostgreSQL: the insert reads the claim's RETURNING, the row as JSON read with the table's row type.
const claimAndInsert = reusableQuery(['quoteId', 'revision', 'inputJson', 'at', 'row'], (db, v: QuoteClaim & { row: string }) =>
  db
    .with('claimed', (qc) => claimQuery(qc, v).returning('public_id'))
    .insertInto('purchase')
    .columns(INSERTED_COLUMNS)
    .expression(sql`select ${jsonRowColumns(INSERTED_COLUMNS)} from claimed, json_populate_record(null::purchase, ${v.row}::json) as r`),
);

/** Frees a quote whose purchase ended without a policy, so another card may be tried. */
export async function releaseQuote(db: Executor, quoteId: string, at: string): Promise<void> {
  await db
    .updateTable('quote')
    .set((eb) => ({ is_purchase_initiated: 0, revision: eb('revision', '+', 1), updated_at: at }))
    .where('public_id', '=', quoteId)
    .where('is_purchased', '=', 0)
    .execute();
}

export async function findPurchase(db: Executor, id: string): Promise<Purchase | undefined> {
  const row = await db.selectFrom('purchase').selectAll().where('public_id', '=', id).executeTakeFirst();
  return row ? toPurchase(row) : undefined;
}

/** The newest purchase of a quote in one of `states`. */
export async function findPurchaseOfQuote(db: Executor, quoteId: string, states: readonly PurchaseState[]): Promise<Purchase | undefined> {
  const row = await db
    .selectFrom('purchase')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .where('state', 'in', [...states])
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? toPurchase(row) : undefined;
}

/**
 * Moves a purchase from one of `from` to `to` (compare and set: of two racing processes one
 * wins, the other gets undefined and re-reads).
 */
export async function transition(db: Executor, id: string, from: readonly PurchaseState[], to: PurchaseState, patch: PurchasePatch, at: string): Promise<Purchase | undefined> {
  const row = await changeState(db, 'all', id, from, to, patch, at);
  return row ? toPurchase(row as PurchaseRow) : undefined;
}

/**
 * `transition` for a purchase in hand: the same compare and set, answering the row without its
 * issue request, which the new state keeps from `purchase` (the application never changes it
 * after the insert; reading the largest column back on every state change was wasted work).
 */
export async function move(db: Executor, purchase: Purchase, from: readonly PurchaseState[], to: PurchaseState, patch: PurchasePatch, at: string): Promise<Purchase | undefined> {
  const row = await changeState(db, 'state', purchase.id, from, to, patch, at);
  return row ? toPurchase(row as ReadRow, purchase) : undefined;
}

type StateChange = ReusableQuery<Record<string, unknown>, Partial<PurchaseRow>>;

/**
 * One compiled statement per shape of state change (the columns the patch writes, how many
 * states it may come from, what it answers): a handful of shapes, all written in this file.
 */
const stateChanges = new Map<string, StateChange>();

export async function changeState(db: Executor, answer: 'all' | 'state', id: string, from: readonly PurchaseState[], to: PurchaseState, patch: PurchasePatch, at: string) {
  const values: Record<string, unknown> = patchColumns(patch);
  values.state = to;
  values.updated_at = at;
  const columns = Object.keys(values);
  const key = `${answer}:${from.length}:${columns.join(',')}`;
  let statement = stateChanges.get(key);
  if (!statement) {
    const fromNames = from.map((_, i) => `from_${i}`);
    statement = reusableQuery([...columns, 'id', ...fromNames], (built, v) => {
      const update = built
        .updateTable('purchase')
        .set(Object.fromEntries(columns.map((column) => [column, v[column]])) as PurchaseRowUpdate)
        .where('public_id', '=', v.id as string)
        .where('state', 'in', fromNames.map((name) => v[name] as string));
      return answer === 'all' ? update.returningAll() : update.returning(STATE_COLUMNS);
    });
    stateChanges.set(key, statement);
  }
  values.id = id;
  from.forEach((state, i) => (values[`from_${i}`] = state));
  const { rows } = await statement(db, values);
  return rows[0];
}

/**
 * Purchases in `states` (open ones) last changed before `before` (recovery's work list), oldest
 * first. The states are literals in the SQL text, so the partial index over open purchases
 * (`purchase_open_idx`) is provably usable for this statement.
 */
export async function listPurchases(db: Executor, states: readonly PurchaseState[], before: string, limit = 500): Promise<Purchase[]> {
  const rows = await db
    .selectFrom('purchase')
    .selectAll()
    .where('state', 'in', states.map((state) => sql.lit(state)))
    .where('updated_at', '<', before)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => toPurchase(row));
}
