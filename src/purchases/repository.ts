import { sql, type QueryCreator } from 'kysely';
import type { Database, Executor } from '../db/database.js';
import { jsonRowColumns } from '../db/json-row.js';
import { reusableQuery, type ReusableQuery } from '../db/reusable-query.js';
import type { PolicyIssueRequest } from '../policies/issue-request.js';
import type { ChallengeInfo, NewPurchase, Purchase, PurchaseState } from './model.js';
import type { PurchaseRow, PurchaseRowUpdate } from './tables.js';

/** Every query of the `purchase` table. Rows stay here; callers see `Purchase`. */

/** Every column but the internal id and the issue request (the largest, never changed after insert). */
const STATE_COLUMNS = [
  'public_id',
  'quote_id',
  'brand_code',
  'partner_id',
  'user_id',
  'state',
  'amount_minor',
  'currency',
  'card_token',
  'card_source',
  'payment_id',
  'payment_result',
  'decline_reason',
  'three_ds_status',
  'challenge_json',
  'challenge_expires_at',
  'policy_number',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof PurchaseRow)[];

/** A row as a state change answers it: every column but the issue request, which the purchase in hand keeps. */
type StateRow = Pick<PurchaseRow, (typeof STATE_COLUMNS)[number]>;

function toPurchase(row: StateRow, issueRequest: PolicyIssueRequest): Purchase {
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
    issueRequest,
    ...(row.policy_number !== null ? { policyNumber: row.policy_number } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const fromRow = (row: PurchaseRow): Purchase =>
  toPurchase(row, JSON.parse(row.issue_request_json) as PolicyIssueRequest);

/** What a state change may write besides the state. */
export interface PurchasePatch {
  paymentId?: string;
  paymentResult?: string;
  declineReason?: string | null;
  threeDSStatus?: string;
  challenge?: ChallengeInfo | null;
  challengeExpiresAt?: string | null;
}

function patchColumns(patch: PurchasePatch): PurchaseRowUpdate {
  const columns: PurchaseRowUpdate = {};
  if (patch.paymentId !== undefined) columns.payment_id = patch.paymentId;
  if (patch.paymentResult !== undefined) columns.payment_result = patch.paymentResult;
  if (patch.declineReason !== undefined) columns.decline_reason = patch.declineReason;
  if (patch.threeDSStatus !== undefined) columns.three_ds_status = patch.threeDSStatus;
  if (patch.challenge !== undefined)
    columns.challenge_json = patch.challenge === null ? null : JSON.stringify(patch.challenge);
  if (patch.challengeExpiresAt !== undefined) columns.challenge_expires_at = patch.challengeExpiresAt;
  return columns;
}

type InsertedRow = Omit<PurchaseRow, 'id'>;
const INSERTED_COLUMNS = [
  ...STATE_COLUMNS,
  'issue_request_json',
  'idempotency_key_id',
] as const satisfies readonly (keyof InsertedRow)[];

function insertedRow(purchase: NewPurchase): InsertedRow {
  return {
    public_id: purchase.id,
    quote_id: purchase.quoteId,
    brand_code: purchase.brandCode,
    partner_id: purchase.partnerId,
    user_id: purchase.userId,
    state: 'STARTED',
    amount_minor: purchase.amountMinor,
    currency: purchase.currency,
    card_token: purchase.cardToken,
    card_source: purchase.cardSource ?? null,
    payment_id: null,
    payment_result: null,
    decline_reason: null,
    three_ds_status: null,
    challenge_json: null,
    challenge_expires_at: null,
    issue_request_json: JSON.stringify(purchase.issueRequest),
    policy_number: null,
    idempotency_key_id: purchase.idempotencyKeyId ?? null,
    created_at: purchase.at,
    updated_at: purchase.at,
  };
}

/** The purchase as recording it stored it (STARTED). */
export const startedPurchase = (purchase: NewPurchase): Purchase =>
  toPurchase(insertedRow(purchase), purchase.issueRequest);

const insertRow = reusableQuery(INSERTED_COLUMNS, (db, row: InsertedRow) => db.insertInto('purchase').values(row));

/** Records a new attempt (STARTED), before any gateway call. */
export async function insertPurchase(db: Executor, purchase: NewPurchase): Promise<void> {
  await insertRow(db, insertedRow(purchase));
}

/**
 * PostgreSQL: the values of an insert that follows a CTE (`previous`, one row or none) in the same
 * statement: the row as JSON, read with the table's row type, so the SQL text is fixed.
 */
export const insertedPurchaseJson = (purchase: NewPurchase): string => JSON.stringify(insertedRow(purchase));

/** PostgreSQL: records the attempt for each row of CTE `previous` (none: nothing is written). */
export function insertPurchaseAfter(db: QueryCreator<Database & { previous: { public_id: string } }>, rowJson: string) {
  return db
    .insertInto('purchase')
    .columns(INSERTED_COLUMNS)
    .expression(
      sql`select ${jsonRowColumns(INSERTED_COLUMNS)} from previous, json_populate_record(null::purchase, ${rowJson}::json) as r`,
    );
}

export async function findPurchase(db: Executor, id: string): Promise<Purchase | undefined> {
  const row = await db.selectFrom('purchase').selectAll().where('public_id', '=', id).executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** The newest purchase of a quote in one of `states`. */
export async function findPurchaseOfQuote(
  db: Executor,
  quoteId: string,
  states: readonly PurchaseState[],
): Promise<Purchase | undefined> {
  const row = await db
    .selectFrom('purchase')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .where('state', 'in', [...states])
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** The newest attempt started under an Idempotency-Key record. */
export async function findPurchaseOfKey(db: Executor, keyId: number): Promise<Purchase | undefined> {
  const row = await db
    .selectFrom('purchase')
    .selectAll()
    .where('idempotency_key_id', '=', keyId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** Whether the quote has an attempt in one of `states` (reads no stored JSON). */
export async function hasPurchaseOfQuote(
  db: Executor,
  quoteId: string,
  states: readonly PurchaseState[],
): Promise<boolean> {
  const row = await db
    .selectFrom('purchase')
    .select('id')
    .where('quote_id', '=', quoteId)
    .where('state', 'in', [...states])
    .executeTakeFirst();
  return row !== undefined;
}

/** A state change's values, named for a statement compiled once per shape (`fromNames`, the patch's columns). */
function stateChangeValues(
  purchase: Purchase,
  from: readonly PurchaseState[],
  to: PurchaseState,
  patch: PurchasePatch,
  at: string,
) {
  const set: Record<string, unknown> = { ...patchColumns(patch), state: to, updated_at: at };
  const columns = Object.keys(set);
  const fromNames = from.map((_, i) => `from_${i}`);
  const values: Record<string, unknown> = { ...set, id: purchase.id };
  from.forEach((state, i) => (values[`from_${i}`] = state));
  return { columns, fromNames, values };
}

type StateChange = ReusableQuery<Record<string, unknown>, StateRow>;
const stateChanges = new Map<string, StateChange>();

/**
 * Moves a purchase in hand from one of `from` to `to`: a compare and set, so of two racing
 * processes one wins and the other gets undefined (and re-reads). The issue request is never
 * changed after the insert, so the new state keeps the one in hand.
 */
export async function moveState(
  db: Executor,
  purchase: Purchase,
  from: readonly PurchaseState[],
  to: PurchaseState,
  patch: PurchasePatch,
  at: string,
): Promise<Purchase | undefined> {
  const { columns, fromNames, values } = stateChangeValues(purchase, from, to, patch, at);
  const key = `${fromNames.length}:${columns.join(',')}`;
  let statement = stateChanges.get(key);
  if (!statement) {
    statement = reusableQuery([...columns, 'id', ...fromNames], (built, v) =>
      built
        .updateTable('purchase')
        .set(Object.fromEntries(columns.map((column) => [column, v[column]])) as PurchaseRowUpdate)
        .where('public_id', '=', v.id as string)
        .where(
          'state',
          'in',
          fromNames.map((name) => v[name] as string),
        )
        .returning(STATE_COLUMNS),
    );
    stateChanges.set(key, statement);
  }
  const [row] = (await statement(db, values)).rows;
  return row ? toPurchase(row, purchase.issueRequest) : undefined;
}

/** Records the policy number of an issued purchase (SQLite's issuing commit; PostgreSQL writes it with the state). */
export async function numberPurchase(db: Executor, id: string, policyNumber: string): Promise<void> {
  await numberRow(db, { id, policyNumber });
}
const numberRow = reusableQuery(['id', 'policyNumber'], (db, v: { id: string; policyNumber: string }) =>
  db.updateTable('purchase').set({ policy_number: v.policyNumber }).where('public_id', '=', v.id),
);

/** The purchase's row locked for the issuing commit while it is in one of `states` (PostgreSQL: a CTE of that statement). */
export function lockPurchaseIn(db: QueryCreator<Database>, id: string, states: readonly string[]) {
  return db
    .selectFrom('purchase')
    .select('purchase.public_id')
    .where('purchase.public_id', '=', id)
    .where('purchase.state', 'in', states)
    .forUpdate();
}

/**
 * PostgreSQL: the issuing statement's move to ISSUED under the number of its `header` CTE, with
 * the approval's columns (`set`, already named as columns). Answers the state columns.
 */
export function issuedStatement(
  db: QueryCreator<Database & { header: { policy_number: string } }>,
  v: { id: string; at: string; set: Record<string, unknown> },
) {
  return db
    .updateTable('purchase')
    .from('header')
    .set((eb) => ({ ...v.set, state: 'ISSUED', policy_number: eb.ref('header.policy_number'), updated_at: v.at }))
    .where('purchase.public_id', '=', v.id)
    .returning(STATE_COLUMNS.map((column) => `purchase.${column}` as const));
}

/** PostgreSQL: ISSUED → CAPTURED as a CTE of the capture's one statement (its event reads the row). */
export function capturedStatement(db: QueryCreator<Database>, v: { id: string; at: string }) {
  return db
    .updateTable('purchase')
    .set({ state: 'CAPTURED', updated_at: v.at })
    .where('public_id', '=', v.id)
    .where('state', '=', 'ISSUED')
    .returning(STATE_COLUMNS);
}

/** The approval's columns as `issuedStatement` sets them, and the purchase as that statement answers it. */
export const approvalColumns = (patch: PurchasePatch): Record<string, unknown> => patchColumns(patch);
export const issuedPurchase = (row: StateRow, inHand: Purchase): Purchase => toPurchase(row, inHand.issueRequest);
export type IssuedRow = StateRow;
