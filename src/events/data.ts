import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import { minorDigits, toMajor } from '../kernel/money/units.js';
import type { PolicyActionType, PolicyStatus } from '../policies/schemas-detail.js';
import type { PolicyChange } from '../policy-changes/model.js';
import type { Purchase } from '../purchases/model.js';
import type { NewPartnerEvent, PolicyReferences } from './model.js';

/**
 * The `data` of each event type, from the domain objects of the change it reports (pure). A
 * partner acts on an event without a second call, so each carries the policy's number, brand,
 * transaction, status and money (major units of the policy currency, as the rest of the contract)
 * and the partner's own identifiers. `policyEventSequence` is added by recordEvent.
 */

const major = (minor: number, currency: string) => toMajor(minor, minorDigits(currency));

function referencesOf(refs: PolicyReferences) {
  return {
    ...(refs.quoteId === undefined ? {} : { quoteId: refs.quoteId }),
    externalIdentifiers: { bookingReference: refs.bookingReference ?? null },
  };
}

/** What every policy event says of the policy after the change. */
interface PolicyFacts {
  readonly policyNumber: string;
  readonly brandCode: string;
  readonly sequenceNumber: number;
  readonly actionType: PolicyActionType;
  readonly policyStatus: PolicyStatus;
  readonly currency: string;
  /** This transaction's money, signed (minor units). */
  readonly transactionMinor: number;
  /** Every transaction of the policy so far, this one included (minor units). */
  readonly totalMinor: number;
  readonly references: PolicyReferences;
}

function policyData(facts: PolicyFacts): Record<string, unknown> {
  return {
    policyNumber: facts.policyNumber,
    brandCode: facts.brandCode,
    sequenceNumber: facts.sequenceNumber,
    actionType: facts.actionType,
    policyStatus: facts.policyStatus,
    amounts: {
      currency: facts.currency,
      transactionAmount: major(facts.transactionMinor, facts.currency),
      totalPaidToDate: major(facts.totalMinor, facts.currency),
    },
    ...referencesOf(facts.references),
  };
}

const purchaseReferences = (purchase: Purchase): PolicyReferences => ({
  quoteId: purchase.quoteId,
  ...(purchase.issueRequest.bookingReference === undefined
    ? {}
    : { bookingReference: purchase.issueRequest.bookingReference }),
});

type EventOf = Omit<NewPartnerEvent, 'at'>;

/**
 * `policy.issued`: the purchase's policy. Its number is taken in the issuing commit: the event's
 * row reads it there (events/repository.ts `recordEventSteps`), and `data` gets it from the row.
 */
export function policyIssuedEvent(purchase: Purchase, policyNumber: string): EventOf {
  return {
    type: 'policy.issued',
    sourceKey: `policy.issued:${purchase.quoteId}`,
    partnerId: purchase.partnerId,
    brandCode: purchase.brandCode,
    policyNumber,
    data: policyData({
      policyNumber,
      brandCode: purchase.brandCode,
      sequenceNumber: 1,
      actionType: 'Purchase',
      policyStatus: 'Active',
      currency: purchase.currency,
      transactionMinor: purchase.amountMinor,
      totalMinor: purchase.amountMinor,
      references: purchaseReferences(purchase),
    }),
  };
}

/** The payment of a policy transaction, as `payment.captured` and `payment.refunded` carry it. */
interface PaymentFacts {
  readonly policyNumber: string;
  readonly brandCode: string;
  readonly sequenceNumber: number;
  readonly currency: string;
  readonly amountMinor: number;
  readonly paymentReference?: string;
  readonly paymentMethod: PaymentMethod;
  readonly references: PolicyReferences;
}

function paymentData(facts: PaymentFacts, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    policyNumber: facts.policyNumber,
    brandCode: facts.brandCode,
    sequenceNumber: facts.sequenceNumber,
    amount: major(facts.amountMinor, facts.currency),
    currency: facts.currency,
    paymentReference: facts.paymentReference ?? null,
    paymentMethod: facts.paymentMethod,
    ...extra,
    ...referencesOf(facts.references),
  };
}

/** `payment.captured` of a purchase (ISSUED → CAPTURED). */
export function purchaseCapturedEvent(purchase: Purchase & { policyNumber: string }): EventOf {
  return {
    type: 'payment.captured',
    sourceKey: `payment.captured:purchase:${purchase.id}`,
    partnerId: purchase.partnerId,
    brandCode: purchase.brandCode,
    policyNumber: purchase.policyNumber,
    data: paymentData({
      policyNumber: purchase.policyNumber,
      brandCode: purchase.brandCode,
      sequenceNumber: 1,
      currency: purchase.currency,
      amountMinor: purchase.amountMinor,
      ...(purchase.paymentId === undefined ? {} : { paymentReference: purchase.paymentId }),
      paymentMethod: purchase.paymentMethod,
      references: purchaseReferences(purchase),
    }),
  };
}

/** `purchase.declined`: the card was refused; no policy, the quote may be bought again. */
export function purchaseDeclinedEvent(purchase: Purchase): EventOf {
  return {
    type: 'purchase.declined',
    sourceKey: `purchase.declined:${purchase.id}`,
    partnerId: purchase.partnerId,
    brandCode: purchase.brandCode,
    data: {
      brandCode: purchase.brandCode,
      amount: major(purchase.amountMinor, purchase.currency),
      currency: purchase.currency,
      paymentResult: purchase.paymentResult ?? 'DECLINED',
      declineReason: purchase.declineReason ?? null,
      ...referencesOf(purchaseReferences(purchase)),
    },
  };
}

/** A change's policy facts after it is applied. */
function changeFacts(change: PolicyChange, references: PolicyReferences): Omit<PolicyFacts, 'transactionMinor'> {
  const cancelled = change.kind === 'CANCELLATION';
  return {
    policyNumber: change.policyNumber,
    brandCode: change.brandCode,
    sequenceNumber: change.baseSequenceNumber + 1,
    actionType: cancelled ? 'Cancellation' : 'Amendment',
    policyStatus: cancelled ? 'Cancelled' : 'Active',
    currency: change.currency,
    totalMinor: change.pricing.paid.total + change.amountMinor,
    references,
  };
}

/** `policy.amended` or `policy.cancelled`: the change's policy transaction was written. */
export function policyChangedEvent(change: PolicyChange, references: PolicyReferences): EventOf {
  const cancellation = change.pricing.kind === 'CANCELLATION' ? change.pricing : undefined;
  const type = cancellation ? 'policy.cancelled' : 'policy.amended';
  return {
    type,
    sourceKey: `${type}:${change.id}`,
    partnerId: change.partnerId,
    brandCode: change.brandCode,
    policyNumber: change.policyNumber,
    data: {
      ...policyData({ ...changeFacts(change, references), transactionMinor: change.amountMinor }),
      ...(cancellation ? { reasonCode: cancellation.reasonCode, effectiveDate: cancellation.effectiveDate } : {}),
    },
  };
}

/** `payment.captured` of an amendment's charge (APPLIED → SETTLED). */
export function changeCapturedEvent(change: PolicyChange, references: PolicyReferences): EventOf {
  return {
    type: 'payment.captured',
    sourceKey: `payment.captured:change:${change.id}`,
    partnerId: change.partnerId,
    brandCode: change.brandCode,
    policyNumber: change.policyNumber,
    data: paymentData({
      ...changeFacts(change, references),
      amountMinor: change.amountMinor,
      ...(change.paymentId === undefined ? {} : { paymentReference: change.paymentId }),
      paymentMethod: change.paymentMethod,
    }),
  };
}

/** What a change's refund paid back, as `payment.refunded` reports it (minor units). */
export interface RefundFacts {
  readonly paid: readonly { readonly paymentId: string; readonly amountMinor: number }[];
  readonly refundedMinor: number;
  /** Owed still when the refund ended part-way (an operator pays it); 0 when all went through. */
  readonly outstandingMinor: number;
}

/** `payment.refunded`: a change's refund went back to the policy's payments, all or a part of it (amount positive). */
export function changeRefundedEvent(change: PolicyChange, references: PolicyReferences, refund: RefundFacts): EventOf {
  const first = refund.paid[0];
  return {
    type: 'payment.refunded',
    sourceKey: `payment.refunded:${change.id}`,
    partnerId: change.partnerId,
    brandCode: change.brandCode,
    policyNumber: change.policyNumber,
    data: paymentData(
      {
        ...changeFacts(change, references),
        amountMinor: refund.refundedMinor,
        ...(first ? { paymentReference: first.paymentId } : {}),
        paymentMethod: change.paymentMethod,
      },
      {
        refunds: refund.paid.map((line) => ({
          paymentReference: line.paymentId,
          amount: major(line.amountMinor, change.currency),
        })),
        ...(refund.outstandingMinor > 0 ? { outstandingAmount: major(refund.outstandingMinor, change.currency) } : {}),
      },
    ),
  };
}

/** The references an amendment's own input gives (a new booking reference), over the policy's. */
export function changeReferences(change: PolicyChange, ofPolicy: PolicyReferences): PolicyReferences {
  const given = change.pricing.kind === 'AMENDMENT' ? change.pricing.input.externalIdentifiers?.bookingReference : null;
  return given ? { ...ofPolicy, bookingReference: given } : ofPolicy;
}

/** A transaction's documents as `documents.sent` reports them. */
export interface SentDocuments {
  readonly messageKey: string;
  readonly policyNumber: string;
  readonly brandCode: string;
  readonly partnerId: number;
  readonly sequenceNumber: number;
  readonly actionType: string;
  /** Sent to the address the partner gave (a resend), not the primary traveller's. */
  readonly toPartnerAddress: boolean;
}

/** `documents.sent`: the e-mail with a transaction's documents was handed to the mail server. */
export function documentsSentEvent(sent: SentDocuments, references: PolicyReferences): EventOf {
  return {
    type: 'documents.sent',
    sourceKey: `documents.sent:${sent.messageKey}`,
    partnerId: sent.partnerId,
    brandCode: sent.brandCode,
    policyNumber: sent.policyNumber,
    data: {
      policyNumber: sent.policyNumber,
      brandCode: sent.brandCode,
      sequenceNumber: sent.sequenceNumber,
      actionType: sent.actionType,
      recipient: sent.toPartnerAddress ? 'REQUESTED_ADDRESS' : 'PRIMARY_TRAVELLER',
      ...referencesOf(references),
    },
  };
}
