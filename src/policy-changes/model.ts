import type { QuoteReferralView } from '../quotes/ports.js';
import type { ChallengeInfo, GatewayStep } from '../payments/flow/area.js';
import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import type { Notification } from '../kernel/notifications/notification.js';
import type { PolicyVersion } from '../policies/transaction-request.js';
import type { QuoteInput } from '../quotes/schemas.js';
import type { PricingRecord } from '../quotes/stored-quote.js';
import type { Parts } from './parts.js';
import type { CancellationTerms } from './rules.js';

/**
 * Amendments and cancellations of a policy (docs/api-contract.md, "Changing a policy"). A change
 * is priced as a preview, then confirmed; its states keep the books right whatever crashes:
 *
 * - charge (the customer pays): PREVIEW → STARTED (recorded, card kept) → authorise
 *   [→ CHALLENGE_PENDING] → one commit writes the policy transaction (APPLIED) → capture → SETTLED.
 *   A declined card or an outage returns the change to PREVIEW (confirm again with another card).
 * - refund: PREVIEW → REFUNDING (its allocation to the policy's payments and its retry bound
 *   recorded) → refund each (keyed, replayed on retry; each recorded before the next) → one commit
 *   writes the transaction → SETTLED. Outages are retried by recovery until `refundRetryUntil`. A
 *   refusal, or an outage past the bound, before anything was refunded: REFUND_DECLINED, nothing
 *   changed; after a part of it: the transaction of that part in one commit → ATTENTION (an
 *   operator pays the rest; the policy stays held) (refunds.ts).
 * - nothing to pay: PREVIEW → SETTLED in one commit.
 * RESOLVED: an ATTENTION change an operator settled outside the API (`policy-changes resolve`), releasing the hold.
 * STALE: the policy changed since the preview; VOIDED: an approved charge whose transaction could
 * not be written (the hold was released). STARTED … ATTENTION hold the policy: one at a time.
 */
export type ChangeKind = 'AMENDMENT' | 'CANCELLATION';
export type ChangeState =
  | 'PREVIEW'
  | 'STARTED'
  | 'CHALLENGE_PENDING'
  | 'APPLIED'
  | 'REFUNDING'
  | 'SETTLED'
  | 'STALE'
  | 'VOIDED'
  | 'REFUND_DECLINED'
  | 'ATTENTION'
  | 'RESOLVED';

/** States recovery moves on (its process may have died mid-way). */
export const UNFINISHED_STATES: readonly ChangeState[] = ['STARTED', 'CHALLENGE_PENDING', 'APPLIED', 'REFUNDING'];

/** The documented reasons a partner may give for a cancellation. */
export const CANCELLATION_REASONS = [
  'TRIP_CANCELLED',
  'DUPLICATE_POLICY',
  'OTHER_COVER_FOUND',
  'CHANGE_OF_PLANS',
  'COOLING_OFF',
  'OTHER',
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/** An amendment's priced preview: the repriced quote and the difference, part by part (minor units). */
export interface AmendmentPricing extends Pick<PricingRecord, 'priceResults' | 'prices'> {
  readonly kind: 'AMENDMENT';
  readonly input: QuoteInput;
  /** What the policy has paid so far, over all its transactions. */
  readonly paid: Parts;
  /** What the policy costs as amended, at today's rates. */
  readonly repriced: Parts;
  /** repriced − paid, plus the amendment fee: the transaction's money. */
  readonly difference: Parts;
}

/** A cancellation's preview: the refund and its basis (minor units, the refund negative). */
export interface CancellationPricing extends CancellationTerms {
  readonly kind: 'CANCELLATION';
  readonly reasonCode: CancellationReason;
  readonly effectiveDate: string;
  readonly paid: Parts;
}

export type ChangePricing = AmendmentPricing | CancellationPricing;

/** What the change's policy transaction will write, fixed by the preview. */
export interface PlannedTransaction {
  readonly version: PolicyVersion;
  readonly amounts: Parts;
  readonly planId: number;
}

/** One refund call: the payment it goes back to and how much. */
export interface RefundLine {
  readonly paymentId: string;
  readonly amountMinor: number;
  /** Set once the gateway answered `refunded`, recorded before the next line is asked. */
  readonly refunded?: boolean;
}

/** A waiting 3-D Secure challenge: declared once, in the money flow. */
export type { ChallengeInfo };

export interface PolicyChange {
  readonly id: string;
  readonly kind: ChangeKind;
  readonly policyHeaderId: number;
  readonly policyNumber: string;
  readonly brandCode: string;
  readonly partnerId: number;
  readonly userId: number;
  readonly baseSequenceNumber: number;
  readonly state: ChangeState;
  readonly attempt: number;
  readonly expiresAt: string;
  /** The transaction's total, signed: + charged, − refunded, 0 nothing moves. */
  readonly amountMinor: number;
  readonly currency: string;
  /** The policy's: a change is paid or refunded the way the policy was bought. */
  readonly paymentMethod: PaymentMethod;
  readonly pricing: ChangePricing;
  readonly transaction: PlannedTransaction;
  readonly cardToken?: string;
  readonly paymentId?: string;
  readonly paymentResult?: string;
  readonly declineReason?: string;
  readonly threeDSStatus?: string;
  readonly challenge?: Readonly<ChallengeInfo>;
  readonly challengeExpiresAt?: string;
  readonly refunds?: readonly RefundLine[];
  /** Until when a refund is retried through gateway outages; past it the next outage ends the refund. */
  readonly refundRetryUntil?: string;
  readonly sequenceNumber?: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A preview as it is first recorded. */
export type NewPolicyChange = Omit<PolicyChange, 'state' | 'attempt' | 'createdAt' | 'updatedAt'> & {
  readonly at: string;
};

/** A priced preview and its problems; `change` is absent when the preview is not valid (nothing is stored). */
export interface PreviewResult {
  readonly change?: PolicyChange;
  readonly pricing?: ChangePricing;
  readonly sequenceNumber: number;
  /** The policy's currency (ISO 4217). */
  readonly currency: string;
  readonly notifications: Notification[];
  /** An amendment referred to an underwriter (or one whose referral was decided): its referral. */
  readonly referral?: QuoteReferralView;
}

/** Gateway keys derive from the change and its attempt: a retry from any process replays. */
export const changeGatewayKey = (change: Pick<PolicyChange, 'id' | 'attempt'>, step: GatewayStep) =>
  `policy-change:${change.id}:${change.attempt}:${step}`;

export const refundGatewayKey = (change: Pick<PolicyChange, 'id'>, line: Pick<RefundLine, 'paymentId'>) =>
  `policy-change:${change.id}:refund:${line.paymentId}`;

/**
 * How an Idempotency-Key record names the confirmation attempt its request held or continued: the
 * change and its attempt (a declined attempt's key is not the next attempt's).
 */
export const changeSubject = (change: Pick<PolicyChange, 'id' | 'attempt'>) =>
  `policy-change:${change.id}:${change.attempt}`;

/** The change and attempt an Idempotency-Key's subject names, if it names one. */
export function changeOfSubject(subject: string): { id: string; attempt: number } | undefined {
  const match = /^policy-change:(.+):(\d+)$/.exec(subject);
  return match ? { id: match[1] ?? '', attempt: Number(match[2]) } : undefined;
}

/**
 * A charge the gateway failed (an outage, nothing charged, the preview back): the contract says
 * retry with the same Idempotency-Key, so its answer is not kept for the key and a retry confirms afresh.
 */
export const isRetryableEnd = (change: PolicyChange) =>
  change.state === 'PREVIEW' && change.paymentResult === 'GATEWAY_ERROR';
