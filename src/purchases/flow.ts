import type { PurchaseCrashPoint } from '../config/config.js';
import { isRefusedValue } from '../db/refused-values.js';
import type { AuthorisationOutcome } from '../payments/gateway.js';
import * as flow from '../payments/flow/flow.js';
import type { Approval, Committed, MoneyArea, MoneyDeps, PaymentPatch } from '../payments/flow/area.js';
import type { Db } from '../db/database.js';
import { InvalidPolicyIssue, PolicyAlreadyIssued } from '../policies/errors.js';
import { prepareIssue } from '../policies/service.js';
import type { QuoteBought } from '../quotes/repository-purchase.js';
import { endAttempt, issuePurchase, recordCapture, type IssueOutcome } from './commits.js';
import { gatewayKey, purchaseIdOfSubject, purchaseSubject, type Purchase, type PurchaseState } from './model.js';
import { findPurchase, moveState } from './repository.js';

/**
 * A purchase in the money flow (payments/flow/flow.ts): its states, its commits and its answers.
 * An approval and the policy are one commit (issuePurchase); a purchase that cannot become a
 * policy voids its hold; a refused card or a failed gateway ends the attempt and frees the quote
 * (endAttempt). Shared by the request and by recovery.
 */
export type FlowDeps = MoneyDeps<PurchaseCrashPoint>;

/** Where a step left the purchase; `bought` when this very call issued the policy (how it marked the quote). */
export interface Settled {
  readonly purchase: Purchase;
  readonly bought?: QuoteBought & { readonly revision: number };
}

const end =
  (to: 'DECLINED' | 'FAILED') =>
  (db: Db, purchase: Purchase, from: readonly PurchaseState[], patch: PaymentPatch, at: string) =>
    endAttempt(db, purchase, { from: [...from], to, patch, at });

export const purchaseMoney: MoneyArea<PurchaseState, Purchase, Settled> = {
  name: 'purchase',
  challengeOf: 'purchase',
  logKey: 'purchaseId',
  key: gatewayKey,
  find: findPurchase,
  subjectOf: purchaseSubject,
  ofSubject: async (db, subject) => {
    const id = purchaseIdOfSubject(subject);
    return id === undefined ? undefined : findPurchase(db, id);
  },
  working: ['STARTED', 'AUTHORISED', 'ISSUED'],
  authorising: ['STARTED', 'CHALLENGE_PENDING'],
  challengePending: 'CHALLENGE_PENDING',
  move: (db, purchase, from, to, patch, at) => moveState(db, purchase, [...from], to, patch, at),
  // No external call comes between recording the approval and issuing: one commit does both.
  approved: issueApproved,
  appliedCrashPoint: 'issue',
  voided: (db, purchase, _paymentId, at) =>
    endAttempt(db, purchase, { from: ['AUTHORISED', 'CHALLENGE_PENDING'], to: 'VOIDED', patch: {}, at }),
  declined: end('DECLINED'),
  failed: end('FAILED'),
  captured: recordCapture,
  settled: (purchase) => ({ purchase }),
  advance: (deps, purchase) => advance(deps, purchase),
};

/** Records what the gateway answered to authorise or to a 3-D Secure continuation, and goes on. */
export const applyAuthorisation = (deps: MoneyDeps, purchase: Purchase, outcome: AuthorisationOutcome) =>
  flow.applyAuthorisation(purchaseMoney, deps, purchase, outcome);

/** Ends an attempt that became no policy (the quote is released in the same commit). */
export async function endWithoutPolicy(
  deps: MoneyDeps,
  purchase: Purchase,
  from: PurchaseState[],
  to: 'VOIDED' | 'FAILED',
  patch: PaymentPatch,
): Promise<Purchase> {
  return (
    (await endAttempt(deps.db, purchase, { from, to, patch, at: flow.now(deps) })) ??
    flow.current(purchaseMoney, deps.db, purchase.id)
  );
}

/**
 * AUTHORISED → ISSUED in one commit (the purchase's state, the policy and the quote; racing
 * processes queue on the purchase's row); the flow captures next. With `approval` (the gateway
 * has just approved) the same transaction also records the authorisation, moving STARTED or
 * CHALLENGE_PENDING straight to ISSUED: one commit instead of two, and a crash before it leaves
 * the purchase STARTED, which recovery finishes by asking the gateway again with the same key
 * (it replays its approval). A policy that cannot be issued is unusable: the flow voids the hold.
 */
async function issueApproved(
  db: Db,
  purchase: Purchase,
  approval: Approval<PurchaseState> | undefined,
  at: string,
): Promise<Committed<Purchase, Settled>> {
  const from = approval?.from ?? ['AUTHORISED'];
  const patch: PaymentPatch = approval ? { ...approval.patch, declineReason: null } : {};
  const paymentId = patch.paymentId ?? purchase.paymentId;
  let outcome: IssueOutcome;
  try {
    // The policy is issued from the issue request stored when the purchase started.
    const request = { ...purchase.issueRequest, paymentReference: paymentId };
    const issue = prepareIssue(request, new Date(at));
    outcome = await issuePurchase(db, { purchase, from: [...from], patch, request, issue, at });
    if (outcome.refused === 'quote-bought')
      throw new InvalidPolicyIssue('quote.id', 'the quote was bought by another purchase');
    if (outcome.refused === 'policy-exists') throw new PolicyAlreadyIssued(purchase.quoteId);
  } catch (error) {
    // A value the database refuses (e.g. PostgreSQL and a NUL in a name) can never be issued either.
    if (!(error instanceof InvalidPolicyIssue) && !isRefusedValue(error)) throw error;
    // Nothing of the issue was written: record the approval on its own, then the hold is released.
    const authorised = approval ? await moveState(db, purchase, [...approval.from], 'AUTHORISED', patch, at) : purchase;
    if (!authorised) return { overtaken: await flow.current(purchaseMoney, db, purchase.id), releaseOurs: false };
    return { unusable: authorised, ...(paymentId ? { paymentId } : {}), why: 'the policy could not be issued', error };
  }
  if (outcome.issued === undefined)
    return { overtaken: await flow.current(purchaseMoney, db, purchase.id), releaseOurs: false };
  const { issued, quoteRevision } = outcome;
  const bought = {
    quoteId: issued.quoteId,
    policyNumber: issued.policyNumber ?? '',
    at: issued.updatedAt,
    revision: quoteRevision,
  };
  return { applied: issued, answer: (captured) => ({ purchase: captured, bought }) };
}

/** Takes a purchase as far as it can go from its current state (used after losing a race, and by recovery). */
export async function advance(deps: MoneyDeps, purchase: Purchase): Promise<Settled> {
  switch (purchase.state) {
    case 'STARTED':
      // Same key, same call: the gateway replays the first answer (or answers now if it never got it).
      return flow.authorise(purchaseMoney, deps, purchase);
    case 'AUTHORISED':
      return flow.approve(purchaseMoney, deps, purchase);
    case 'ISSUED':
      return { purchase: await flow.capture(purchaseMoney, deps, purchase) };
    default:
      return { purchase };
  }
}
