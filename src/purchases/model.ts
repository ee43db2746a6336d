import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import type { ChallengeInfo, GatewayStep } from '../payments/flow/area.js';
import type { PolicyIssueRequest } from '../policies/issue-request.js';

/**
 * A purchase attempt and its states. The order of steps keeps the books right whatever crashes:
 * STARTED (recorded, quote claimed) → authorise (CHALLENGE_PENDING first with 3-D Secure) →
 * one transaction records the approval (AUTHORISED), issues the policy and marks the quote →
 * ISSUED → capture → CAPTURED. AUTHORISED is stored on its own only when the policy could not
 * be issued (the hold is voided next) or by an older process. DECLINED and FAILED release the
 * quote; VOIDED releases a hold that could not become a policy.
 */
export type PurchaseState =
  'STARTED' | 'CHALLENGE_PENDING' | 'AUTHORISED' | 'ISSUED' | 'CAPTURED' | 'DECLINED' | 'FAILED' | 'VOIDED';

/** States a purchase can still move on from (the quote stays claimed meanwhile). */
export const OPEN_STATES: readonly PurchaseState[] = ['STARTED', 'CHALLENGE_PENDING', 'AUTHORISED', 'ISSUED'];

/** A waiting 3-D Secure challenge: declared once, in the money flow. */
export type { ChallengeInfo };

export interface Purchase {
  id: string;
  quoteId: string;
  brandCode: string;
  partnerId: number;
  userId: number;
  state: PurchaseState;
  amountMinor: number;
  currency: string;
  paymentMethod: PaymentMethod;
  cardToken: string;
  cardSource?: string;
  paymentId?: string;
  paymentResult?: string;
  declineReason?: string;
  threeDSStatus?: string;
  challenge?: ChallengeInfo;
  challengeExpiresAt?: string;
  issueRequest: PolicyIssueRequest;
  policyNumber?: string;
  createdAt: string;
  updatedAt: string;
}

/** A purchase attempt as it is recorded, before any gateway call (state STARTED). */
export interface NewPurchase {
  readonly id: string;
  readonly quoteId: string;
  readonly brandCode: string;
  readonly partnerId: number;
  readonly userId: number;
  /** The server's price of the chosen plan, minor units; nothing in the request body changes it. */
  readonly amountMinor: number;
  readonly currency: string;
  readonly paymentMethod: PaymentMethod;
  readonly cardToken: string;
  readonly cardSource?: string;
  /** What the policy will record, fixed when the purchase starts. */
  readonly issueRequest: PolicyIssueRequest;
  readonly at: string;
}

/**
 * An attempt the gateway failed (an outage, nothing charged): the contract says retry with the same
 * Idempotency-Key, so its answer is never kept for that key and a retry starts a new attempt.
 */
export const isRetryableEnd = (purchase: Pick<Purchase, 'state' | 'paymentResult'>) =>
  purchase.state === 'FAILED' && purchase.paymentResult === 'GATEWAY_ERROR';

/** Gateway idempotency keys derive from the purchase, so a retry (any process, after any crash) replays. */
export const gatewayKey = (purchase: Pick<Purchase, 'id'>, step: GatewayStep) => `purchase:${purchase.id}:${step}`;

/** How an Idempotency-Key record names the purchase its request started or continued. */
export const purchaseSubject = (purchase: Pick<Purchase, 'id'>) => `purchase:${purchase.id}`;

/** The purchase id an Idempotency-Key's subject names, if it names a purchase. */
export const purchaseIdOfSubject = (subject: string): string | undefined =>
  subject.startsWith('purchase:') ? subject.slice('purchase:'.length) : undefined;
