import { PAYMENT_METHODS } from '../kernel/money/payment-methods.js';
import { Type } from 'typebox';
import { REFERRAL_STATUSES } from '../referrals/model.js';
import { POLICY_ACTION_TYPES, POLICY_STATUSES } from '../policies/schemas-detail.js';

/**
 * The `data` of each event type (docs/api-contract.md, "Events"), documented in the OpenAPI
 * `webhooks` section. Amounts are major units of `currency` (as everywhere in the contract).
 */

const text = (description: string) => Type.String({ description });
const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

const policyEventSequence = Type.Integer({
  minimum: 1,
  description:
    "1, 2, 3 … per policy, gapless, in the order the changes committed: order a policy's events by it (deliveries may arrive out of order).",
});
const policyNumber = text('The policy number, e.g. `TIAU260000042`.');
const brandCode = text('The brand the policy was sold under.');
const sequenceNumber = Type.Integer({ minimum: 1, description: 'The policy transaction (1 = the purchase).' });
const references = {
  quoteId: Type.Optional(text('The quote the policy was bought from.')),
  externalIdentifiers: Type.Object(
    { bookingReference: nullableText("The partner's `externalIdentifiers.bookingReference` given with the quote.") },
    { title: 'EventExternalIdentifiers', description: "The partner's own identifiers of the policy." },
  ),
};

export const PolicyEventAmounts = Type.Object(
  {
    currency: text('ISO 4217 code of the policy currency.'),
    transactionAmount: Type.Number({
      description: "This transaction's money: positive when the customer pays, negative when refunded.",
    }),
    totalPaidToDate: Type.Number({ description: "Every transaction of the policy so far, this one's included." }),
  },
  { title: 'PolicyEventAmounts', description: 'Money of a policy event, major units.' },
);

export const PolicyEventData = Type.Object(
  {
    policyNumber,
    brandCode,
    sequenceNumber,
    actionType: Type.Enum([...POLICY_ACTION_TYPES], {
      type: 'string',
      description: 'The transaction.',
    }),
    policyStatus: Type.Enum([...POLICY_STATUSES], { type: 'string', description: 'The policy after it.' }),
    amounts: PolicyEventAmounts,
    reasonCode: Type.Optional(text('`policy.cancelled`: the reason the partner gave.')),
    effectiveDate: Type.Optional(text('`policy.cancelled`: the day cover ends (YYYY-MM-DD).')),
    ...references,
    policyEventSequence,
  },
  {
    title: 'PolicyEventData',
    description: '`data` of `policy.issued`, `policy.amended` and `policy.cancelled`.',
    examples: [
      {
        policyNumber: 'TIAU260000042',
        brandCode: 'brandau',
        sequenceNumber: 1,
        actionType: 'Purchase',
        policyStatus: 'Active',
        amounts: { currency: 'AUD', transactionAmount: 123.45, totalPaidToDate: 123.45 },
        quoteId: 'q_7Hh2kQ',
        externalIdentifiers: { bookingReference: 'BK-10293' },
        policyEventSequence: 1,
      },
    ],
  },
);

export const PaymentEventData = Type.Object(
  {
    policyNumber,
    brandCode,
    sequenceNumber,
    amount: Type.Number({ minimum: 0, description: 'Captured or refunded, major units.' }),
    currency: text('ISO 4217 code.'),
    paymentReference: nullableText(
      "The payment gateway's reference of the charge (refund: of the first payment refunded).",
    ),
    paymentMethod: Type.Optional(
      Type.Enum([...PAYMENT_METHODS], {
        type: 'string',
        description:
          "How the money moved: CARD, the policy's card at the brand's gateway; ON_ACCOUNT, charged to or credited on the partner's account (its monthly statement). Absent only on events recorded before on-account purchases existed (all CARD).",
      }),
    ),
    refunds: Type.Optional(
      Type.Array(
        Type.Object({ paymentReference: text('Payment refunded.'), amount: Type.Number({ description: 'Amount.' }) }),
        { description: '`payment.refunded`: each payment the refund went back to.' },
      ),
    ),
    outstandingAmount: Type.Optional(
      Type.Number({
        minimum: 0,
        description:
          '`payment.refunded` of a refund that went through only in part (the gateway refused the rest, or stayed unavailable): what is still owed to the customer, major units; an operator pays it. Absent when all of it went through.',
      }),
    ),
    ...references,
    policyEventSequence,
  },
  {
    title: 'PaymentEventData',
    description: '`data` of `payment.captured` and `payment.refunded`.',
    examples: [
      {
        policyNumber: 'TIAU260000042',
        brandCode: 'brandau',
        sequenceNumber: 1,
        amount: 123.45,
        currency: 'AUD',
        paymentReference: 'pay_5d1c',
        paymentMethod: 'CARD',
        quoteId: 'q_7Hh2kQ',
        externalIdentifiers: { bookingReference: 'BK-10293' },
        policyEventSequence: 2,
      },
    ],
  },
);

export const PurchaseDeclinedData = Type.Object(
  {
    brandCode,
    amount: Type.Number({ description: 'The price that was refused, major units.' }),
    currency: text('ISO 4217 code.'),
    paymentResult: text('`DECLINED` or `INSUFFICIENT_FUNDS`.'),
    declineReason: nullableText("The gateway's reason."),
    ...references,
  },
  {
    title: 'PurchaseDeclinedData',
    description: '`data` of `purchase.declined`: no policy; the quote may be bought again with another card.',
  },
);

export const DocumentsSentData = Type.Object(
  {
    policyNumber,
    brandCode,
    sequenceNumber,
    actionType: text('The transaction whose documents were sent.'),
    recipient: Type.Enum(['PRIMARY_TRAVELLER', 'REQUESTED_ADDRESS'], {
      type: 'string',
      description: "The primary traveller, or the address of the partner's resend request.",
    }),
    ...references,
    policyEventSequence,
  },
  {
    title: 'DocumentsSentData',
    description: '`data` of `documents.sent`: the e-mail was accepted by the mail server.',
  },
);

export const WebhookTestData = Type.Object(
  { webhookId: text('The endpoint tested.'), message: text('What the event is for, for a person.') },
  {
    title: 'WebhookTestData',
    description: '`data` of `webhook.test` (sent to one endpoint on request).',
  },
);

export const ReferralEventData = Type.Object(
  {
    quoteId: text('The referred quote.'),
    brandCode: text('The brand of the quote.'),
    referralStatus: Type.Enum([...REFERRAL_STATUSES], {
      type: 'string',
      description: "The referral after the change (the quote's `referral.status`).",
    }),
    reasonCodes: Type.Array(Type.String(), { description: 'The reason codes of the rules that referred the quote.' }),
    referredAt: text('Since when the quote is referred (UTC).'),
    decidedAt: Type.Optional(text('When the underwriter decided (UTC).')),
    loadingPercentage: Type.Optional(
      Type.Number({ description: '`quote.referral_approved`: the loading added to the plan premium (%).' }),
    ),
    extraExcess: Type.Optional(
      Type.Number({ description: "`quote.referral_approved`: added to the policy's excess (major units)." }),
    ),
    currency: Type.Optional(text('ISO 4217 code of `extraExcess`.')),
  },
  {
    title: 'ReferralEventData',
    description:
      "`data` of `quote.referred`, `quote.referral_approved`, `quote.referral_declined` and `quote.information_requested`. Reason codes only: the underwriter's words (a decline reason, the information asked for) are in the quote's `referral` (GET quote), never in an event.",
  },
);

export const AmendmentReferralEventData = Type.Object(
  {
    policyNumber: text('The policy the amendment is of.'),
    amendmentId: text("The referred amendment (its preview's `id`)."),
    brandCode: text('The brand of the policy.'),
    referralStatus: Type.Enum([...REFERRAL_STATUSES], {
      type: 'string',
      description: "The amendment's referral after the change (the preview's `referral.status`).",
    }),
    reasonCodes: Type.Array(Type.String(), {
      description: 'The reason codes of the rules that referred the amendment.',
    }),
    referredAt: text('Since when the amendment is referred (UTC).'),
    decidedAt: Type.Optional(text('When the underwriter decided (UTC).')),
  },
  {
    title: 'AmendmentReferralEventData',
    description:
      "`data` of `policy.amendment_referred`, `policy.amendment_referral_approved` and `policy.amendment_referral_declined`. Reason codes only, no personal data: the underwriter's words are never in an event.",
  },
);
