import { Type, type Static } from 'typebox';
import { BrandCodeParam } from '../http/schemas.js';
import { TaxSummary } from '../policies/schemas.js';
import { Maybe, Money, ShortText, Text } from '../quotes/schemas/common.js';

/** Shapes shared by amendments and cancellations of a policy (docs/api-contract.md, "Changing a policy"). */

const signed = 'Signed, in the policy currency’s major unit: positive when the customer pays, negative when refunded.';

export const PolicyChangeAmounts = Type.Object(
  {
    premium: Maybe(Money(`Premium before discount, taxes and donation. ${signed}`)),
    discount: Maybe(Money('Discount taken off the premium (a positive discount lowers transactionAmount).')),
    taxes: Maybe(Type.Array(TaxSummary, { maxItems: 50, description: `Each tax by name. ${signed}` })),
    footprintsDonation: Maybe(Money(`Charitable donation. ${signed}`)),
    fees: Maybe(
      Type.Array(TaxSummary, {
        maxItems: 20,
        description: 'Fees of the change itself (e.g. `Amendment fee`, `Cancellation fee`), each added to the total.',
      }),
    ),
    transactionAmount: Maybe(
      Money(`premium − discount + Σ taxes + footprintsDonation + Σ fees, exactly the sum of the parts. ${signed}`),
    ),
  },
  {
    title: 'PolicyChangeAmounts',
    description: 'Money of a policy (paid so far, repriced) or of a change (difference, refund), part by part.',
    examples: [
      {
        premium: 42.5,
        discount: 0,
        taxes: [{ name: 'GST', amount: 4.25 }],
        footprintsDonation: 0,
        fees: [],
        transactionAmount: 46.75,
      },
    ],
  },
);
export type PolicyChangeAmounts = Static<typeof PolicyChangeAmounts>;

export const POLICY_CHANGE_STATUSES = [
  'PREVIEW',
  'EXPIRED',
  'STALE',
  'IN_PROGRESS',
  'CHALLENGE_REQUIRED',
  'APPLIED',
  'FAILED',
] as const;
export type PolicyChangeStatus = (typeof POLICY_CHANGE_STATUSES)[number];

export const PolicyChangeStatus = Type.Enum([...POLICY_CHANGE_STATUSES], {
  title: 'PolicyChangeStatus',
  type: 'string',
  description: [
    'Where the change stands:',
    '- `PREVIEW`: priced and held until `expiresAt`; confirm it to apply it (again after a declined card).',
    '- `EXPIRED`: the preview is past `expiresAt`; ask for a new preview.',
    '- `STALE`: the policy changed since the preview (another change was applied); ask for a new preview.',
    '- `IN_PROGRESS`: confirmed and being settled (payment or refund under way); read it again later.',
    '- `CHALLENGE_REQUIRED`: the card asks for 3-D Secure: open `threeDSResponseInfo.threeDSResponse`, then confirm again with `threeDSRequestInfo`.',
    '- `APPLIED`: the policy transaction `sequenceNumber` is written; the policy is changed. With `REFUND_INCOMPLETE` in `validation`: only part of the refund went through (the transaction books that part; an operator pays the rest).',
    '- `FAILED`: nothing was changed (the charge was released, or the refund was refused or the gateway stayed unavailable); `declineReason` says why.',
  ].join('\n'),
});

/** Values of a change's `paymentResult`: the purchase's, plus `REFUNDED`. */
export const PolicyChangePaymentResult = Type.Enum(
  ['APPROVED', 'DECLINED', 'INSUFFICIENT_FUNDS', 'THREEDS_CHALLENGE_REQUIRED', 'GATEWAY_ERROR', 'REFUNDED'],
  {
    type: 'string',
    description:
      'Outcome of the last payment step: as on a purchase (see docs/api-contract.md, "Payments"), or `REFUNDED` when the refund was paid back to the card(s). Absent when no money moved.',
  },
);
export type PolicyChangePaymentResult = Static<typeof PolicyChangePaymentResult>;

/** Members every change answer carries (the kind-specific ones are added in schemas-amendment/-cancellation). */
export const changeFields = {
  id: Maybe(
    Text('Opaque id of the change; absent when the preview is not valid (an invalid preview is not stored).', 64),
  ),
  status: Maybe(PolicyChangeStatus),
  expiresAt: Maybe(Type.String({ description: 'Until when the preview may be confirmed (UTC, ISO 8601).' })),
  policyNumber: Maybe(ShortText('The policy changed.')),
  sequenceNumber: Maybe(
    Type.Integer({
      minimum: 1,
      description: 'The policy transaction (version) this change creates once applied, or created when `APPLIED`.',
    }),
  ),
  currencyCode: Maybe(ShortText('ISO 4217 code of the policy currency; every amount is in its major unit.')),
};

export const changeOutcomeFields = {
  paymentResult: Maybe(PolicyChangePaymentResult),
  declineReason: Maybe(
    ShortText(
      'Why the last payment or refund step did not succeed, e.g. `DO_NOT_HONOUR`, `INSUFFICIENT_FUNDS`, `THREEDS_CHALLENGE_EXPIRED`, `REFUND_DECLINED`, `REFUND_GATEWAY_UNAVAILABLE` (the gateway stayed unavailable past the refund’s retry bound).',
    ),
  ),
  createdAt: Maybe(Type.String({ description: 'When the preview was first stored (UTC, ISO 8601).' })),
};

export const RefundLine = Type.Object(
  {
    paymentId: Maybe(ShortText('The payment of the policy the money went back to.')),
    amount: Maybe(Money('Refunded to that payment, positive, in the policy currency’s major unit.')),
  },
  { title: 'RefundLine', description: 'One refund to one of the policy’s payments.' },
);

const PolicyNumberParam = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'The policy number, e.g. `TIAU260000042`.',
});
const ChangeIdParam = (kind: string) =>
  Type.String({ minLength: 1, maxLength: 64, description: `The ${kind} id, as returned by its preview.` });

export const PolicyChangeParams = Type.Object({ brandCode: BrandCodeParam, policyNumber: PolicyNumberParam });
export type PolicyChangeParams = Static<typeof PolicyChangeParams>;

export const AmendmentParams = Type.Object({
  ...PolicyChangeParams.properties,
  amendmentId: ChangeIdParam('amendment'),
});
export type AmendmentParams = Static<typeof AmendmentParams>;

export const CancellationParams = Type.Object({
  ...PolicyChangeParams.properties,
  cancellationId: ChangeIdParam('cancellation'),
});
export type CancellationParams = Static<typeof CancellationParams>;
