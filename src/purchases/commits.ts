import { runPlan, type CommitPlan } from '../db/commit-plan.js';
import type { Db } from '../db/database.js';
import { purchaseDocumentsMessage } from '../documents/messages.js';
import { policyIssuedEvent, purchaseCapturedEvent, purchaseDeclinedEvent } from '../events/data.js';
import { recordEventSteps } from '../events/repository.js';
import { dueNowStep, enqueueStep } from '../db/outbox/repository.js';
import { bindKeyStep } from '../http/idempotency/repository.js';
import type { HeldKey } from '../http/idempotency/service.js';
import type { PolicyIssueRequest } from '../policies/issue-request.js';
import type { NumberedIssue } from '../policies/model.js';
import { noPolicyStep, numberedPolicySteps, POLICY_HEADER_STEP } from '../policies/repository.js';
import {
  claimStep,
  isQuoteBought,
  lockUnboughtStep,
  markBoughtStep,
  releaseStep,
  type QuoteClaim,
} from '../quotes/repository-purchase.js';
import { purchaseSubject, type NewPurchase, type Purchase, type PurchaseState } from './model.js';
import {
  findPurchase,
  insertPurchaseStep,
  lockPurchaseStep,
  MOVED_COLUMNS,
  movedPurchase,
  moveStateStep,
  type PurchasePatch,
} from './repository.js';

/**
 * The purchase's commits that write several tables, all or nothing, each a commit plan of its
 * tables' owners' steps (db/commit-plan.ts runs it: one SQLite transaction, or one PostgreSQL
 * statement without BEGIN/COMMIT round trips): recording an attempt, issuing, the capture, and
 * an attempt's end. The issuing commit takes the policy-number counter's row lock (held to the
 * commit, for gapless numbers) inside its one statement on PostgreSQL, never across a round trip
 * to this process, whose event loop may be busy with other requests meanwhile (that wait, under
 * the lock, capped issuance at ~260/s).
 */

const NUMBER = { step: POLICY_HEADER_STEP, column: 'policy_number' } as const;

/**
 * Claims the quote and records the purchase, all or nothing, before any gateway call, with the
 * request's Idempotency-Key naming it (a retry with the key answers from it). False when the claim lost.
 */
export async function startPurchase(db: Db, claim: QuoteClaim, purchase: NewPurchase, key?: HeldKey): Promise<boolean> {
  const binding = key && bindKeyStep('key', 'purchase', { keyId: key.id, subject: purchaseSubject(purchase) });
  const { ended } = await runPlan(db, {
    name: 'start-purchase',
    steps: [
      { ...claimStep('claim', claim), orElse: 'claim-lost' },
      insertPurchaseStep('purchase', 'claim', purchase),
      ...(binding ? [binding] : []),
    ],
  });
  return ended === undefined;
}

/** How an attempt ends without a policy: its state, from where, what it records. */
export interface AttemptEnd {
  readonly from: readonly PurchaseState[];
  readonly to: 'DECLINED' | 'FAILED' | 'VOIDED';
  readonly patch: PurchasePatch;
  readonly at: string;
}

/**
 * Ends an attempt without a policy and frees its quote in one commit: a crash between the two
 * writes left a quote claimed with no attempt in flight, refused for ever. A refused card is
 * reported to the partner (no policy: the quote may be bought again). Undefined when the purchase
 * had moved on (another process won); nothing is written then.
 */
export async function endAttempt(db: Db, purchase: Purchase, end: AttemptEnd): Promise<Purchase | undefined> {
  const moved = moveStateStep('moved', undefined, { purchase, ...end });
  const declined = { ...purchaseDeclinedEvent(withPatch(purchase, end.patch)), at: end.at };
  const { rows } = await runPlan(db, {
    name: 'end-attempt',
    steps: [
      moved,
      releaseStep('released', 'moved', purchase.quoteId, end.at),
      ...(end.to === 'DECLINED' ? recordEventSteps('declined', 'moved', declined) : []),
    ],
    answer: { moved: MOVED_COLUMNS },
  });
  return rows.moved ? movedPurchase(rows.moved, purchase) : undefined;
}

/** The purchase as the move leaves it, for what the declined event reads (its payment result and reason). */
function withPatch({ declineReason, ...purchase }: Purchase, patch: PurchasePatch): Purchase {
  const reason = patch.declineReason === undefined ? declineReason : (patch.declineReason ?? undefined);
  return {
    ...purchase,
    ...(patch.paymentResult === undefined ? {} : { paymentResult: patch.paymentResult }),
    ...(reason === undefined ? {} : { declineReason: reason }),
  };
}

/** An issuing commit: the purchase in hand, the states it may be issued from, and what it records. */
export interface PurchaseIssue {
  /** Its issue request is the one stored when it started (never changed since). */
  readonly purchase: Purchase;
  /** Compare and set: of racing processes one wins. */
  readonly from: readonly PurchaseState[];
  /** The gateway's approval when it is recorded in the same commit. */
  readonly patch: PurchasePatch;
  readonly request: PolicyIssueRequest;
  readonly issue: NumberedIssue;
  readonly at: string;
}

/** Issued, with the quote's new revision; or why nothing was written. */
export type IssueOutcome =
  | { readonly issued: Purchase; readonly quoteRevision: number; readonly refused?: undefined }
  | {
      readonly issued?: undefined;
      readonly quoteRevision?: undefined;
      readonly refused: 'overtaken' | 'quote-bought' | 'policy-exists';
    };

/**
 * How long a purchase's e-mail waits for its capture's commit, which makes it due: the partner
 * hears `payment.captured` before `documents.sent`, and the traveller gets no e-mail of a payment
 * still in flight. A capture later than this (a crash, finished by recovery) no longer holds it.
 */
const EMAIL_WAITS_FOR_CAPTURE_MS = 60_000;

/**
 * Purchase ISSUED, policy numbered and written, quote bought, the documents' e-mail and
 * `policy.issued`, one commit. PostgreSQL first locks the purchase and the quote and requires no
 * policy (racing issuers queue on the rows; a closed gate writes nothing and takes no number);
 * on SQLite a refusing write rolls back. Why it was refused is read after the fact (rare).
 */
export async function issuePurchase(db: Db, unit: PurchaseIssue): Promise<IssueOutcome> {
  const { purchase, from, patch, request, issue, at } = unit;
  const { quoteId } = purchase;
  const closed = 'closed';
  // Its number is the header's: the event's row reads it from there (and `data` from the row).
  const issuedEvent = { ...policyIssuedEvent(purchase, ''), at };
  const plan: CommitPlan = {
    name: 'issue-purchase',
    steps: [
      lockPurchaseStep('open_purchase', purchase.id, from, closed),
      lockUnboughtStep('open_quote', 'open_purchase', quoteId, closed),
      noPolicyStep('no_policy', 'open_quote', quoteId, closed),
      ...numberedPolicySteps('no_policy', request, issue, closed),
      markBoughtStep('bought', POLICY_HEADER_STEP, { quoteId, at }, NUMBER, closed),
      // The documents' e-mail, committed with the policy (outbox: sent by the worker, at least once),
      // held for the capture's commit (recordCapture).
      enqueueStep('documents', POLICY_HEADER_STEP, {
        ...purchaseDocumentsMessage(quoteId, at),
        dueAt: new Date(Date.parse(at) + EMAIL_WAITS_FOR_CAPTURE_MS).toISOString(),
      }),
      ...recordEventSteps('issued_event', POLICY_HEADER_STEP, issuedEvent, NUMBER),
      moveStateStep(
        'issued',
        POLICY_HEADER_STEP,
        { purchase, from, to: 'ISSUED', patch, at },
        { orElse: closed, policyNumber: NUMBER },
      ),
    ],
    answer: { issued: MOVED_COLUMNS, bought: ['revision'] },
  };
  const { ended, rows } = await runPlan(db, plan);
  if (ended !== undefined || !rows.issued || !rows.bought) return { refused: await whyNotIssued(db, unit) };
  return { issued: movedPurchase(rows.issued, purchase), quoteRevision: Number(rows.bought.revision) };
}

/** Why the commit was refused (rare: a lost race or a defect); read after the fact. */
async function whyNotIssued(
  db: Db,
  { purchase, from }: PurchaseIssue,
): Promise<'overtaken' | 'quote-bought' | 'policy-exists'> {
  const latest = await findPurchase(db, purchase.id);
  if (!latest || !from.includes(latest.state)) return 'overtaken';
  return (await isQuoteBought(db, purchase.quoteId)) ? 'quote-bought' : 'policy-exists';
}

/**
 * ISSUED → CAPTURED and its `payment.captured` event, one commit: the partner hears of every
 * capture, once; the documents' e-mail held for it is due from then. Undefined when the purchase
 * had moved on (another process captured it).
 */
export async function recordCapture(db: Db, purchase: Purchase, at: string): Promise<Purchase | undefined> {
  const { policyNumber } = purchase;
  const move = { purchase, from: ['ISSUED'] as const, to: 'CAPTURED' as const, patch: {}, at };
  // Issued before policy numbers were kept on purchases: nothing to report the capture under.
  const event =
    policyNumber === undefined
      ? []
      : recordEventSteps('captured_event', 'moved', { ...purchaseCapturedEvent({ ...purchase, policyNumber }), at });
  const { rows } = await runPlan(db, {
    name: 'capture-purchase',
    steps: [
      moveStateStep('moved', undefined, move),
      ...event,
      dueNowStep('documents_due', 'moved', { key: purchaseDocumentsMessage(purchase.quoteId, at).key, at }),
    ],
    answer: { moved: MOVED_COLUMNS },
  });
  return rows.moved ? movedPurchase(rows.moved, purchase) : undefined;
}
