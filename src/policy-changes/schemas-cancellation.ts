import { Type, type Static } from 'typebox';
import { REFUND_BASES } from '../catalogue/refund-basis.js';
import { Validation } from '../kernel/notifications/notification.js';
import { ClientInfo } from '../quotes/schemas.js';
import { DateText, Maybe, Money } from '../quotes/schemas/common.js';
import { CANCELLATION_REASONS } from './model.js';
import { changeFields, changeOutcomeFields, PolicyChangeAmounts } from './schemas-shared.js';

/** Shapes of cancelling a policy: preview (`CancellationRequest` → `Cancellation`), then confirm. */

export const CancellationReasonCode = Type.Enum([...CANCELLATION_REASONS], {
  title: 'CancellationReasonCode',
  type: 'string',
  description:
    'Why the customer cancels: `TRIP_CANCELLED`, `DUPLICATE_POLICY`, `OTHER_COVER_FOUND`, `CHANGE_OF_PLANS`, `COOLING_OFF`, `OTHER`. Recorded only: the refund follows the plan’s rules, not the reason.',
});

export const RefundBasis = Type.Enum([...REFUND_BASES], {
  title: 'RefundBasis',
  type: 'string',
  description: [
    'How the refund is worked out:',
    '- `COOLING_OFF`: asked within the cooling-off period, taking effect by departure (no cover used): everything paid is refunded, no fee.',
    '- `PRO_RATA`: the share of what was paid for the unused cover days (fees paid are kept), less the cancellation fee; a fee never makes the customer pay.',
    '- `NONE`: the plan gives no refund at this point (e.g. an annual multi-trip plan after departure).',
  ].join('\n'),
});

export const CancellationRequest = Type.Object(
  {
    reasonCode: CancellationReasonCode,
    effectiveDate: Maybe(
      DateText(
        'The first day without cover, YYYY-MM-DD in the policy’s time zone (`presentationTimeZoneCode`); from today to the departure date (today once the trip has started), within the cover. Default: today there.',
      ),
    ),
    clientInfo: Maybe(ClientInfo),
  },
  {
    title: 'CancellationRequest',
    description: 'Asks what cancelling the policy would refund.',
    examples: [{ reasonCode: 'TRIP_CANCELLED' }, { reasonCode: 'CHANGE_OF_PLANS', effectiveDate: '2026-12-05' }],
  },
);
export type CancellationRequest = Static<typeof CancellationRequest>;

export const Cancellation = Type.Object(
  {
    ...changeFields,
    reasonCode: Maybe(CancellationReasonCode),
    effectiveDate: Maybe(DateText('The first day without cover, YYYY-MM-DD in the policy’s time zone.')),
    refundBasis: Maybe(RefundBasis),
    coolingOffEndsAt: Maybe(
      Type.String({
        description: 'End of the cooling-off period (UTC, ISO 8601); the issue instant when there is none.',
      }),
    ),
    coverDays: Maybe(
      Type.Integer({ minimum: 0, description: 'Days of cover bought, departure to cover end inclusive.' }),
    ),
    unusedCoverDays: Maybe(
      Type.Integer({
        minimum: 0,
        description: 'Days of cover not used, from the later of effectiveDate and departure.',
      }),
    ),
    paidToDate: Maybe({
      ...PolicyChangeAmounts,
      description: 'What the policy has paid so far, over all its transactions.',
    }),
    refund: Maybe({
      ...PolicyChangeAmounts,
      description:
        'The cancellation transaction’s money: negative parts are refunded, the cancellation fee is positive.',
    }),
    refundAmount: Maybe(Money('What goes back to the customer: −refund.transactionAmount, 0 or positive.')),
    ...changeOutcomeFields,
    validation: Maybe(Validation),
  },
  {
    title: 'Cancellation',
    description:
      'A priced cancellation of a policy. With `validation.isValid` false nothing is stored and there is no `id`.',
    examples: [
      {
        id: '8b27e0d4-5c3f-4a19-b6e2-71d9f0c4a285',
        status: 'PREVIEW',
        expiresAt: '2026-11-22T00:30:00.000Z',
        policyNumber: 'TIAU260000042',
        sequenceNumber: 2,
        currencyCode: 'AUD',
        reasonCode: 'TRIP_CANCELLED',
        effectiveDate: '2026-11-22',
        refundBasis: 'COOLING_OFF',
        coolingOffEndsAt: '2026-12-13T12:59:59.000Z',
        coverDays: 15,
        unusedCoverDays: 15,
        paidToDate: {
          premium: 100,
          discount: 0,
          taxes: [{ name: 'GST', amount: 10 }],
          footprintsDonation: 0,
          fees: [],
          transactionAmount: 110,
        },
        refund: {
          premium: -100,
          discount: 0,
          taxes: [{ name: 'GST', amount: -10 }],
          footprintsDonation: 0,
          fees: [],
          transactionAmount: -110,
        },
        refundAmount: 110,
        createdAt: '2026-11-22T00:00:00.000Z',
        validation: { isValid: true, errors: [] },
      },
    ],
  },
);
export type Cancellation = Static<typeof Cancellation>;

export const CancellationConfirmRequest = Type.Object(
  { clientInfo: Maybe(ClientInfo) },
  {
    title: 'CancellationConfirmRequest',
    description:
      'Applies a previewed cancellation and refunds it to the card(s) that paid. The body is optional: none, `{}` or `{"clientInfo": …}`.',
    examples: [{}],
  },
);
export type CancellationConfirmRequest = Static<typeof CancellationConfirmRequest>;
