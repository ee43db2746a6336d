import type { PlanStep, StepColumn } from '../db/commit-plan.js';
import type { Executor } from '../db/database.js';
import type { StoredQuote } from './stored-quote.js';

/**
 * A purchase's changes to the `quote` table (the table's other queries: repository.ts): the claim
 * that holds the quote while a payment runs, its release when the payment ends without a policy,
 * and marking it bought in the issuing commit, each as a step of the purchase's commit plans
 * (purchases/commits.ts, run by db/commit-plan.ts).
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

/**
 * The step that claims the quote for a purchase: only if nobody changed, claimed or bought it
 * since `quote.revision` was read; no row when the claim lost.
 */
export function claimStep(name: string, { quote, input, stage, at }: QuoteClaim) {
  const values = { quoteId: quote.id, revision: quote.revision, inputJson: JSON.stringify(input), stage, at };
  return {
    name,
    values,
    build: (qc, { v }) =>
      qc
        .updateTable('quote')
        // revision + 1 is v.revision + 1 (the where below); written so the statement compiles once.
        .set((eb) => ({
          is_purchase_initiated: 1,
          input_json: v.inputJson,
          stage: v.stage,
          revision: eb('revision', '+', 1),
          updated_at: v.at,
        }))
        .where('public_id', '=', v.quoteId)
        .where('revision', '=', v.revision)
        .where('is_purchase_initiated', '=', 0)
        .where('is_purchased', '=', 0)
        .returning('public_id'),
  } satisfies PlanStep<typeof values>;
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

/** The step that frees a quote whose purchase ended without a policy (after the step `after`), so another card may be tried. */
export function releaseStep(name: string, after: string, quoteId: string, at: string) {
  return {
    name,
    after,
    values: { quoteId, at },
    build: (qc, { v, gate }) =>
      qc
        .updateTable('quote')
        .set((eb) => ({ is_purchase_initiated: 0, revision: eb('revision', '+', 1), updated_at: v.at }))
        .where('public_id', '=', v.quoteId)
        .where('is_purchased', '=', 0)
        .where(gate)
        .returning('public_id'),
  } satisfies PlanStep<{ quoteId: string; at: string }>;
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

/** The step that locks the quote's row for the issuing commit while it is not bought (PostgreSQL; see `PlanStep.locks`). */
export function lockUnboughtStep(name: string, after: string, quoteId: string, orElse: string) {
  return {
    name,
    after,
    orElse,
    locks: true,
    values: { quoteId },
    build: (qc, { v, gate, lock }) =>
      lock(
        qc
          .selectFrom('quote')
          .select('public_id')
          .where('public_id', '=', v.quoteId)
          .where('is_purchased', '=', 0)
          .where(gate),
      ),
  } satisfies PlanStep<{ quoteId: string }>;
}

/** What marking a quote bought writes besides its flags. */
export interface QuoteBought {
  readonly quoteId: string;
  readonly policyNumber: string;
  readonly at: string;
}

/**
 * The step that marks the quote bought under the policy number an earlier step took; answers the
 * new `revision`, none when it was bought already.
 */
export function markBoughtStep(
  name: string,
  after: string,
  bought: Omit<QuoteBought, 'policyNumber'>,
  policyNumber: StepColumn,
  orElse: string,
) {
  return {
    name,
    after,
    orElse,
    values: { quoteId: bought.quoteId, at: bought.at },
    build: (qc, { v, ref, gate }) =>
      qc
        .updateTable('quote')
        .set((eb) => ({
          is_purchased: 1,
          is_purchase_initiated: 1,
          policy_number: ref<string>(policyNumber.step, policyNumber.column),
          stage: 'PAYMENT',
          revision: eb('revision', '+', 1),
          updated_at: v.at,
        }))
        .where('public_id', '=', v.quoteId)
        .where('is_purchased', '=', 0)
        .where(gate)
        .returning('revision'),
  } satisfies PlanStep<{ quoteId: string; at: string }>;
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
