import type { QueryCreator } from 'kysely';
import type { Database, Executor } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { StoredQuote } from './stored-quote.js';

/**
 * A purchase's changes to the `quote` table (the table's other queries: repository.ts): the claim
 * that holds the quote while a payment runs, its release when the payment ends without a policy,
 * and marking it bought in the issuing commit. Each comes as a function for SQLite's transactions
 * and, where PostgreSQL writes it inside one multi-table statement (purchases/commits.ts), as the
 * statement that commit adds as a CTE.
 */

/** A purchase's claim of a quote: only if nobody changed, claimed or bought it since `quote.revision` was read. */
export interface QuoteClaim {
  readonly quote: StoredQuote;
  /** The buyer's completed input, stored with the claim. */
  readonly input: StoredQuote['input'];
  /** The stage that input reaches (never behind the stored one), stored with the claim. */
  readonly stage: StoredQuote['stage'];
  readonly at: string;
}

/** The values of a claim's statement. */
export interface ClaimValues {
  readonly quoteId: string;
  readonly revision: number;
  readonly inputJson: string;
  readonly stage: string;
  readonly at: string;
}
export const CLAIM_NAMES = [
  'quoteId',
  'revision',
  'inputJson',
  'stage',
  'at',
] as const satisfies readonly (keyof ClaimValues)[];

export function claimValues({ quote, input, stage, at }: QuoteClaim): ClaimValues {
  return { quoteId: quote.id, revision: quote.revision, inputJson: JSON.stringify(input), stage, at };
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
        stage: claim.stage,
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
export function claimedQuote({ quote, input, stage, at }: QuoteClaim): StoredQuote {
  return {
    ...quote,
    input,
    stage,
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

/** A claimed, unbought quote as recovery's claim repair sees it. */
export interface HeldClaim {
  readonly quoteId: string;
  readonly revision: number;
}

/** Quotes claimed for a purchase, not bought, unchanged since `before` (recovery checks each has an open attempt). */
export async function listHeldClaims(db: Executor, before: string, limit = 500): Promise<HeldClaim[]> {
  const rows = await db
    .selectFrom('quote')
    .select(['public_id', 'revision'])
    .where('is_purchase_initiated', '=', 1)
    .where('is_purchased', '=', 0)
    .where('updated_at', '<', before)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ quoteId: row.public_id, revision: row.revision }));
}

/** Frees a claim nobody holds any more, only if the quote has not changed since it was listed. */
export async function releaseHeldClaim(db: Executor, claim: HeldClaim, at: string): Promise<boolean> {
  const result = await db
    .updateTable('quote')
    .set((eb) => ({ is_purchase_initiated: 0, revision: eb('revision', '+', 1), updated_at: at }))
    .where('public_id', '=', claim.quoteId)
    .where('revision', '=', claim.revision)
    .where('is_purchase_initiated', '=', 1)
    .where('is_purchased', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
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
