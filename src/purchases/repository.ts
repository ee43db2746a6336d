import { runPlan, type PlanStep, type StepColumn } from '../db/commit-plan.js';
import type { Executor } from '../db/database.js';
import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import { reusableQuery } from '../db/reusable-query.js';
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
  'payment_method',
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
    paymentMethod: row.payment_method as PaymentMethod,
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
const INSERTED_COLUMNS = [...STATE_COLUMNS, 'issue_request_json'] as const satisfies readonly (keyof InsertedRow)[];

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
    payment_method: purchase.paymentMethod,
    payment_id: null,
    payment_result: null,
    decline_reason: null,
    three_ds_status: null,
    challenge_json: null,
    challenge_expires_at: null,
    issue_request_json: JSON.stringify(purchase.issueRequest),
    policy_number: null,
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

/** The step of a commit plan that records a new attempt (STARTED) when the step `after` answered a row. */
export function insertPurchaseStep(name: string, after: string, purchase: NewPurchase): PlanStep<InsertedRow> {
  return {
    name,
    after,
    values: insertedRow(purchase),
    build: (_, { v, insert }) => insert('purchase', v).returning('public_id'),
  };
}

export async function findPurchase(db: Executor, id: string): Promise<Purchase | undefined> {
  const row = await db.selectFrom('purchase').selectAll().where('public_id', '=', id).executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** The newest purchase the gateway's payment `paymentId` belongs to (a gateway's webhook names only that). */
export async function findPurchaseOfPayment(db: Executor, paymentId: string): Promise<Purchase | undefined> {
  const row = await db
    .selectFrom('purchase')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
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
  const steps = [moveStateStep('moved', undefined, { purchase, from, to, patch, at })];
  const { rows } = await runPlan(db, { name: 'move-purchase', steps, answer: { moved: STATE_COLUMNS } });
  return rows.moved ? movedPurchase(rows.moved, purchase) : undefined;
}

/**
 * The step of a commit plan that moves the purchase in hand from one of `from` to `to` (compare
 * and set), with the patch's columns and, when `policyNumber` names an earlier step's column (the
 * issuing commit's header), its policy number. Answers the state columns (`movedPurchase`).
 */
export function moveStateStep(
  name: string,
  after: string | undefined,
  move: { purchase: Purchase; from: readonly PurchaseState[]; to: PurchaseState; patch: PurchasePatch; at: string },
  extra: { orElse?: string; policyNumber?: StepColumn } = {},
): PlanStep<Record<string, unknown>> {
  const { columns, fromNames, values } = stateChangeValues(move.purchase, move.from, move.to, move.patch, move.at);
  const number = extra.policyNumber;
  return {
    name,
    ...(after === undefined ? {} : { after }),
    ...(extra.orElse === undefined ? {} : { orElse: extra.orElse }),
    shape: `${fromNames.length}:${columns.join(',')}:${number ? `${number.step}.${number.column}` : ''}`,
    values,
    build: (qc, { v, ref, gate }) =>
      qc
        .updateTable('purchase')
        .set({
          ...(Object.fromEntries(columns.map((column) => [column, v[column]])) as PurchaseRowUpdate),
          ...(number ? { policy_number: ref<string>(number.step, number.column) } : {}),
        })
        .where('public_id', '=', v.id as string)
        .where(
          'state',
          'in',
          fromNames.map((n) => v[n] as string),
        )
        .where(gate)
        .returning(STATE_COLUMNS),
  };
}

/** The state columns `moveStateStep` answers (the columns a plan's `answer` asks of it). */
export const MOVED_COLUMNS: readonly string[] = STATE_COLUMNS;

/** The purchase as a plan's `moveStateStep` answered it. */
export const movedPurchase = (row: Record<string, unknown>, inHand: Purchase): Purchase =>
  toPurchase(row as StateRow, inHand.issueRequest);

/**
 * The step that locks the purchase's row for the issuing commit while it is in one of `states`
 * (PostgreSQL; SQLite has one writer and the move itself is the compare and set).
 */
export function lockPurchaseStep(
  name: string,
  id: string,
  states: readonly PurchaseState[],
  orElse: string,
): PlanStep<Record<string, string>> {
  const values: Record<string, string> = { id };
  states.forEach((state, i) => (values[`from_${i}`] = state));
  return {
    name,
    orElse,
    locks: true,
    shape: String(states.length),
    values,
    build: (qc, { v, lock }) =>
      lock(
        qc
          .selectFrom('purchase')
          .select('public_id')
          .where('public_id', '=', v.id as string)
          .where(
            'state',
            'in',
            states.map((_, i) => v[`from_${i}`] as string),
          ),
      ),
  };
}
