import type { Executor, Tx } from '../db/database.js';
import type { ChallengeInfo, Purchase, PurchaseState } from './model.js';
import type { NewPurchaseRow, PurchaseRow, PurchaseRowUpdate } from './tables.js';

/** Every query of the purchases area (the quote's purchase flags included). Rows stay here. */

type IssueRequest = Purchase['issueRequest'];

/** A row as read back: everything, or everything but the issue request when the caller holds it already. */
type ReadRow = Omit<PurchaseRow, 'id' | 'issue_request_json'> & ({ issue_request_json: string } | { issue_request_json?: undefined });

function toPurchase(row: ReadRow, known?: Purchase): Purchase {
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

function patchColumns(patch: PurchasePatch): PurchaseRowUpdate {
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

/**
 * Claims the quote (only if nobody changed, claimed or bought it since `revision` was read) with
 * the buyer's completed input. Returns false when the claim lost; the caller rolls back.
 */
export async function claimQuote(tx: Tx, quoteId: string, revision: number, inputJson: string, at: string): Promise<boolean> {
  const result = await tx
    .updateTable('quote')
    .set({ is_purchase_initiated: 1, input_json: inputJson, revision: revision + 1, updated_at: at })
    .where('public_id', '=', quoteId)
    .where('revision', '=', revision)
    .where('is_purchase_initiated', '=', 0)
    .where('is_purchased', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
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

/** The quote is bought: flags and policy number, in the issuing transaction. Answers its new revision; undefined if it was bought already. */
export async function markQuotePurchased(tx: Tx, quoteId: string, policyNumber: string, at: string): Promise<number | undefined> {
  const row = await tx
    .updateTable('quote')
    .set((eb) => ({ is_purchased: 1, is_purchase_initiated: 1, policy_number: policyNumber, stage: 'PAYMENT', revision: eb('revision', '+', 1), updated_at: at }))
    .where('public_id', '=', quoteId)
    .where('is_purchased', '=', 0)
    .returning('revision')
    .executeTakeFirst();
  return row?.revision;
}

/** Stores a new purchase; the answer is built from what was written (no read-back of the issue request). */
export async function insertPurchase(tx: Tx, row: NewPurchaseRow & ReadRow): Promise<Purchase> {
  await tx.insertInto('purchase').values(row).execute();
  return toPurchase(row);
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
  const row = await db
    .updateTable('purchase')
    .set({ ...patchColumns(patch), state: to, updated_at: at })
    .where('public_id', '=', id)
    .where('state', 'in', [...from])
    .returningAll()
    .executeTakeFirst();
  return row ? toPurchase(row) : undefined;
}

/** Every column but the internal id and the issue request (the largest, never changed after insert). */
const STATE_COLUMNS = [
  'public_id', 'quote_id', 'brand_code', 'partner_id', 'user_id', 'state', 'amount_minor', 'currency', 'card_token', 'card_source',
  'payment_id', 'payment_result', 'decline_reason', 'three_ds_status', 'challenge_json', 'challenge_expires_at', 'policy_number',
  'created_at', 'updated_at',
] as const satisfies readonly (keyof PurchaseRow)[];

/**
 * `transition` for a purchase in hand: the same compare and set, answering the row without its
 * issue request, which the new state keeps from `purchase` (the application never changes it
 * after the insert; reading the largest column back on every state change was wasted work).
 */
export async function move(db: Executor, purchase: Purchase, from: readonly PurchaseState[], to: PurchaseState, patch: PurchasePatch, at: string): Promise<Purchase | undefined> {
  const row = await db
    .updateTable('purchase')
    .set({ ...patchColumns(patch), state: to, updated_at: at })
    .where('public_id', '=', purchase.id)
    .where('state', 'in', [...from])
    .returning(STATE_COLUMNS)
    .executeTakeFirst();
  return row ? toPurchase(row, purchase) : undefined;
}

/** Records the number of the policy just issued (in the issuing transaction, the purchase already ISSUED by it). */
export async function setPolicyNumber(tx: Tx, purchase: Purchase, policyNumber: string): Promise<Purchase> {
  await tx.updateTable('purchase').set({ policy_number: policyNumber }).where('public_id', '=', purchase.id).execute();
  return { ...purchase, policyNumber };
}

/** Purchases in `states` last changed before `before` (recovery's work list), oldest first. */
export async function listPurchases(db: Executor, states: readonly PurchaseState[], before: string, limit = 500): Promise<Purchase[]> {
  const rows = await db
    .selectFrom('purchase')
    .selectAll()
    .where('state', 'in', [...states])
    .where('updated_at', '<', before)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => toPurchase(row));
}
