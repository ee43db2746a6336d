import { toContractReferral } from '../quotes/contract.js';
import type { QuoteReferralView } from '../quotes/ports.js';
import { threeDsAnswerOf } from '../payments/three-ds.js';
import { minorDigits, pricesToMajor, toMajor } from '../kernel/money/units.js';
import type { Notification, Validation } from '../kernel/notifications/notification.js';
import { isBlocking } from '../kernel/notifications/problems.js';
import type { PolicySummary } from '../policies/schemas.js';
import { refundProgress } from './ledger.js';
import type {
  AmendmentPricing,
  CancellationPricing,
  ChangeKind,
  ChangePricing,
  ChangeState,
  PolicyChange,
} from './model.js';
import type { NamedAmount, Parts } from './parts.js';
import type {
  Amendment,
  Cancellation,
  PolicyChangeAmounts,
  PolicyChangeConfirmation,
  PolicyChangePaymentResult,
  PolicyChangeStatus,
} from './schemas.js';

/**
 * Policy changes as the contract shows them: minor units become major-unit doubles of the policy
 * currency here, and no member is ever `undefined` (absent instead). Pure: `now` is passed in.
 */

const STATUS_OF: Record<ChangeState, PolicyChangeStatus> = {
  PREVIEW: 'PREVIEW',
  STALE: 'STALE',
  STARTED: 'IN_PROGRESS',
  REFUNDING: 'IN_PROGRESS',
  ATTENTION: 'IN_PROGRESS',
  CHALLENGE_PENDING: 'CHALLENGE_REQUIRED',
  APPLIED: 'APPLIED',
  SETTLED: 'APPLIED',
  VOIDED: 'FAILED',
  REFUND_DECLINED: 'FAILED',
  RESOLVED: 'FAILED',
};

/**
 * The contract's status of a change; a preview past `expiresAt` is `EXPIRED`. One awaiting or
 * settled by an operator whose transaction was written (a refund booked for the part that went
 * through, a capture refused) is `APPLIED`: the policy changed.
 */
export function changeStatus(
  change: Pick<PolicyChange, 'state' | 'expiresAt' | 'sequenceNumber'>,
  now: string,
): PolicyChangeStatus {
  if (change.state === 'PREVIEW' && Date.parse(now) > Date.parse(change.expiresAt)) return 'EXPIRED';
  if ((change.state === 'ATTENTION' || change.state === 'RESOLVED') && change.sequenceNumber !== undefined)
    return 'APPLIED';
  return STATUS_OF[change.state];
}

const named = (list: readonly NamedAmount[], digits: number) =>
  list.map(({ name, amount }) => ({ name, amount: toMajor(amount, digits) }));

/** Parts (minor units, signed) as the contract's amounts. */
export function amountsView(parts: Parts, digits: number): PolicyChangeAmounts {
  return {
    premium: toMajor(parts.premium, digits),
    discount: toMajor(parts.discount, digits),
    taxes: named(parts.taxes, digits),
    footprintsDonation: toMajor(parts.donation, digits),
    fees: named(parts.fees, digits),
    transactionAmount: toMajor(parts.total, digits),
  };
}

export interface ChangeViewArgs {
  /** Absent when the preview is not valid (nothing was stored). */
  readonly change?: PolicyChange;
  readonly policyNumber: string;
  /** The transaction the change would create (PreviewResult.sequenceNumber). */
  readonly sequenceNumber: number;
  readonly currencyCode: string;
  readonly notifications: readonly Notification[];
  readonly now: string;
}

export const validationOf = (notifications: readonly Notification[]): Validation => ({
  isValid: !notifications.some(isBlocking),
  errors: [...notifications],
});

/** The members every change answer shares, before and after its kind's own. */
function common(args: ChangeViewArgs) {
  const { change } = args;
  const head: Pick<Amendment, 'id' | 'status' | 'expiresAt' | 'policyNumber' | 'sequenceNumber' | 'currencyCode'> =
    change ? { id: change.id, status: changeStatus(change, args.now), expiresAt: change.expiresAt } : {};
  head.policyNumber = change?.policyNumber ?? args.policyNumber;
  head.sequenceNumber = change?.sequenceNumber ?? args.sequenceNumber;
  head.currencyCode = change?.currency ?? args.currencyCode;
  const tail: Pick<Amendment, 'paymentResult' | 'declineReason' | 'createdAt' | 'validation'> = {};
  // Stored as text, but only ever written from the gateway's closed sets (settlement.ts).
  if (change?.paymentResult !== undefined) tail.paymentResult = change.paymentResult as PolicyChangePaymentResult;
  if (change?.declineReason !== undefined) tail.declineReason = change.declineReason;
  if (change) tail.createdAt = change.createdAt;
  tail.validation = validationOf(args.notifications);
  return { head, tail, digits: minorDigits(head.currencyCode) };
}

/** The pricing to show: the one given, else the stored change's own when it is of that kind. */
function pricingOf<K extends ChangeKind>(
  kind: K,
  given: Extract<ChangePricing, { kind: K }> | undefined,
  change: PolicyChange | undefined,
) {
  if (given) return given;
  const stored = change?.pricing;
  return stored?.kind === kind ? (stored as Extract<ChangePricing, { kind: K }>) : undefined;
}

export function amendmentView(
  args: ChangeViewArgs & { readonly pricing?: AmendmentPricing; readonly referral?: QuoteReferralView },
): Amendment {
  const { head, tail, digits } = common(args);
  const pricing = pricingOf('AMENDMENT', args.pricing, args.change);
  if (!pricing) return { ...head, ...tail };
  return {
    ...head,
    input: pricing.input,
    priceResults: pricesToMajor(pricing.priceResults, digits),
    prices: pricesToMajor(pricing.prices, digits),
    paidToDate: amountsView(pricing.paid, digits),
    repriced: amountsView(pricing.repriced, digits),
    difference: amountsView(pricing.difference, digits),
    transactionAmount: toMajor(pricing.difference.total, digits),
    ...(args.referral ? { referral: toContractReferral(args.referral, digits) } : {}),
    ...tail,
  };
}

export function cancellationView(args: ChangeViewArgs & { readonly pricing?: CancellationPricing }): Cancellation {
  const { head, tail, digits } = common(args);
  const pricing = pricingOf('CANCELLATION', args.pricing, args.change);
  if (!pricing) return { ...head, ...tail };
  return {
    ...head,
    reasonCode: pricing.reasonCode,
    effectiveDate: pricing.effectiveDate,
    refundBasis: pricing.basis,
    coolingOffEndsAt: pricing.coolingOffEndsAt,
    coverDays: pricing.coverDays,
    unusedCoverDays: pricing.unusedDays,
    paidToDate: amountsView(pricing.paid, digits),
    refund: amountsView(pricing.refund, digits),
    refundAmount: toMajor(-pricing.refund.total, digits),
    ...tail,
  };
}

/** The answer of a confirm: the change, its payment or refunds, and the policy as it stands. */
export function confirmationView(args: {
  readonly change: PolicyChange;
  readonly policy: PolicySummary;
  readonly notifications: readonly Notification[];
  readonly now: string;
}): PolicyChangeConfirmation {
  const { change, policy, notifications, now } = args;
  const view: ChangeViewArgs = {
    change,
    policyNumber: change.policyNumber,
    sequenceNumber: change.sequenceNumber ?? change.baseSequenceNumber + 1,
    currencyCode: change.currency,
    notifications,
    now,
  };
  const answer: PolicyChangeConfirmation = { policy };
  if (change.kind === 'AMENDMENT') answer.amendment = amendmentView(view);
  else answer.cancellation = cancellationView(view);
  if (change.paymentResult !== undefined) answer.paymentResult = change.paymentResult as PolicyChangePaymentResult;
  // What went back: all of a settled refund, the part of one that ended short (ATTENTION).
  const refunds = change.state === 'SETTLED' || change.state === 'ATTENTION' ? refundProgress(change).paid : [];
  if (change.cardToken !== undefined || change.paymentId !== undefined || refunds.length > 0)
    answer.paymentMethod = change.paymentMethod;
  if (change.paymentId !== undefined) answer.paymentIds = change.paymentId;
  else if (refunds.length > 0) answer.paymentIds = refunds.map((r) => r.paymentId).join(',');
  const threeDs = threeDsAnswerOf(change);
  if (threeDs) answer.threeDSResponseInfo = threeDs;
  if (refunds.length > 0) {
    const digits = minorDigits(change.currency);
    answer.refunds = refunds.map((r) => ({ paymentId: r.paymentId, amount: toMajor(r.amountMinor, digits) }));
  }
  answer.validation = validationOf(notifications);
  return answer;
}
