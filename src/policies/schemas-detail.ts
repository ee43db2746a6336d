import { Type, type Static } from 'typebox';
import { Address, Currency, DependentShortSummary, TravellerShortSummary } from './schemas-shared.js';

/** Policy detail records: one per policy transaction (spec §2.9). */

const opt = Type.Optional;
const long = (description?: string) => Type.Integer(description ? { description } : {});
const str = (description?: string) => Type.String(description ? { description } : {});
const double = (description?: string) => Type.Number(description ? { description } : {});
const utc = (what: string) => str(`${what}, UTC ISO 8601 (e.g. \`2026-11-30T13:00:00.000Z\`).`);
const local = (what: string) =>
  str(`${what}, wall-clock time in \`presentationTimeZoneCode\` without offset (e.g. \`2026-12-01T00:00:00.000\`).`);

/** The two statuses policy rows are written with. */
export const POLICY_STATUSES = ['Active', 'Cancelled'] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

export const POLICY_ACTION_TYPES = ['Purchase', 'Amendment', 'Cancellation'] as const;
export type PolicyActionType = (typeof POLICY_ACTION_TYPES)[number];
export const PolicyActionTypeSchema = (description: string) =>
  Type.Enum([...POLICY_ACTION_TYPES], { type: 'string', description });

export const TaxSummary = Type.Object(
  { name: opt(str('e.g. `GST`, `Stamp duty`.')), amount: opt(double('In the policy currency’s major unit.')) },
  { title: 'TaxSummary', description: 'One tax charged on the transaction.' },
);

export const FinancialSummary = Type.Object(
  {
    policyDetailId: opt(long()),
    transactionAmount: opt(
      double(
        'What the transaction charged: premium − discount + taxes + footprintsDonation + fees. Negative when it refunded (an amendment that costs less, a cancellation).',
      ),
    ),
    premium: opt(
      double('Premium before discount, taxes and donation; for an amendment or cancellation, the change of premium.'),
    ),
    discount: opt(double('Discount taken off the premium (positive); for a change, the change of discount.')),
    footprintsDonation: opt(double('Charitable donation added to the transaction.')),
    taxes: opt(Type.Array(TaxSummary)),
    fees: opt(
      Type.Array(TaxSummary, {
        description:
          'Extension: fees of an amendment or a cancellation (e.g. `Cancellation fee`), each added to transactionAmount. Absent when there is none.',
      }),
    ),
  },
  { title: 'FinancialSummary', description: 'Money of one policy transaction, in the policy currency’s major unit.' },
);

export const PolicyOptionLongSummary = Type.Object(
  {
    name: opt(str()),
    description: opt(str()),
    displayOrder: opt(long()),
    optionTypeId: opt(long()),
    policyOptionId: opt(long()),
    policyDetailId: opt(long()),
    planId: opt(long()),
  },
  { title: 'PolicyOptionLongSummary', description: 'An option bought with the policy.' },
);

export const SpecifiedItemShortSummary = Type.Object(
  {
    name: opt(str()),
    serialNumber: opt(str()),
    currency: opt(Currency),
    itemValue: opt(double('In the currency’s major unit.')),
    displayItemValue: opt(str('The value formatted for display, e.g. `$1,250.00`.')),
  },
  { title: 'SpecifiedItemShortSummary', description: 'An item covered for its declared value.' },
);

export const PolicyCombinedOptionLongSummary = Type.Object(
  {
    policyOptionLongSummaries: opt(Type.Array(PolicyOptionLongSummary)),
    policySpecifiedItemOption: opt(
      Type.Object(
        { specifiedItems: opt(Type.Array(SpecifiedItemShortSummary)) },
        { description: 'Specified items covered.' },
      ),
    ),
    policyAdventureActivitiesOption: opt(
      Type.Object(
        { adventureLevel: opt(str()), adventureActivities: opt(Type.Array(Type.String())) },
        { description: 'Adventure activities covered, and their level.' },
      ),
    ),
  },
  { title: 'PolicyCombinedOptionLongSummary', description: 'Every option of the transaction.' },
);

export const PolicyNoteReason = Type.Object(
  {
    policyNoteReasonId: opt(long()),
    reasonText: opt(str()),
    isActive: opt(Type.Boolean()),
    etlAt: opt(utc('When the reason was loaded')),
    etlLocalDateTime: opt(local('When the reason was loaded')),
    displayOrder: opt(Type.Integer()),
    isDefault: opt(Type.Boolean()),
  },
  {
    title: 'PolicyNoteReason',
    description: 'Why a note was written, from the insurer’s list of reasons.',
    examples: [
      {
        policyNoteReasonId: 1,
        reasonText: 'Customer contact',
        isActive: true,
        etlAt: '2026-12-05T13:00:00.000Z',
        etlLocalDateTime: '2026-12-06T00:00:00.000',
        displayOrder: 10,
        isDefault: true,
      },
    ],
  },
);

export const PolicyNote = Type.Object(
  {
    policyNoteId: opt(long()),
    policyDetailId: opt(long()),
    noteText: opt(str()),
    userId: opt(long()),
    createdAt: opt(utc('When the note was written')),
    createdLocalDateTime: opt(local('When the note was written')),
    policyNoteReasonId: opt(long()),
    policyNoteReason: opt(PolicyNoteReason),
  },
  {
    title: 'PolicyNote',
    description:
      'A note on a policy transaction, written by one of the insurer’s operators (never by a partner); `userId` is the operator’s id.',
    examples: [
      {
        policyNoteId: 7,
        policyDetailId: 42,
        noteText: 'Customer called to confirm the travel dates; no change needed.',
        userId: 3,
        createdAt: '2026-12-08T03:15:00.000Z',
        createdLocalDateTime: '2026-12-08T14:15:00.000',
        policyNoteReasonId: 1,
        policyNoteReason: {
          policyNoteReasonId: 1,
          reasonText: 'Customer contact',
          isActive: true,
          etlAt: '2026-12-05T13:00:00.000Z',
          etlLocalDateTime: '2026-12-06T00:00:00.000',
          displayOrder: 10,
          isDefault: true,
        },
      },
    ],
  },
);

export const PolicyDetailLongSummary = Type.Object(
  {
    policyDetailId: opt(long()),
    policyDetailNumber: opt(
      str('Unique per transaction: the policy number, a hyphen and the sequence number (e.g. `TIAU260000042-1`).'),
    ),
    status: opt(str('Status of the transaction, e.g. `Active`.')),
    actionType: opt(PolicyActionTypeSchema('What the transaction did.')),
    ipAddress: opt(str('Of the user who did the transaction.')),
    ipAddressCountry: opt(str('Of the user who did the transaction (ISO 3166 alpha-2).')),
    userAgent: opt(str('Of the user who did the transaction.')),
    presentationTimeZoneCode: opt(
      str('IANA time zone of the `...LocalDateTime` fields (from the home country or province).'),
    ),
    createdAt: opt(utc('When the transaction was made')),
    createdLocalDateTime: opt(local('When the transaction was made')),
    departureAt: opt(utc('Start of cover (first moment of the departure day in the policy zone)')),
    departureLocalDateTime: opt(local('Start of cover')),
    coverEndAt: opt(utc('End of cover (23:59:59 of the last day in the policy zone)')),
    coverEndLocalDateTime: opt(local('End of cover')),
    coverDurationInDays: opt(long('Days of cover, first and last day included.')),
    travellers: opt(Type.Array(TravellerShortSummary)),
    dependents: opt(Type.Array(DependentShortSummary)),
    address: opt(Address),
    financialSummary: opt(FinancialSummary),
    policyCombinedOptionLongSummary: opt(PolicyCombinedOptionLongSummary),
    notes: opt(
      Type.Array(PolicyNote, {
        description: 'Notes the insurer’s operators wrote on this transaction, oldest first; empty when none.',
      }),
    ),
  },
  {
    title: 'PolicyDetailLongSummary',
    description: 'One policy transaction (purchase, amendment or cancellation) (spec §2.9).',
  },
);
export type PolicyDetailLongSummary = Static<typeof PolicyDetailLongSummary>;

export const PolicyDetailList = Type.Array(PolicyDetailLongSummary, {
  description: 'Every transaction of the policy, oldest first (the purchase is the first).',
});
