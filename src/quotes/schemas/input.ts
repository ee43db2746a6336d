import { Type, type Static } from 'typebox';
import { Validation } from '../../kernel/notifications/notification.js';
import { QUOTE_TYPES } from '../../pricing/request.js';
import { Amount, DateText, Flag, Long, LongDefault0, Maybe, ShortText, Text } from './common.js';

/** Quote input types of spec §2.1–2.2, field names letter for letter. */

const validation = Maybe(
  Type.Object(Validation.properties, { description: 'Outcome of validating this object (filled by the server).' }),
);

export const AddressInput = Type.Object(
  {
    addressLine1: Maybe(Text('First address line.')),
    addressLine2: Maybe(Text('Second address line.')),
    addressLine3: Maybe(Text('Third address line.')),
    addressLine4: Maybe(Text('Fourth address line.')),
    provinceCode: Maybe(ShortText('State or province code, e.g. `NSW`.')),
    countryCode: Maybe(ShortText('Country code (ISO 3166 alpha-3, e.g. `AUS`); the home country of the quote.')),
    postalCode: Maybe(ShortText('Postal code.')),
    validation,
  },
  { title: 'AddressInput', description: 'An address (spec §2.1 AddressInput).' },
);
export type AddressInput = Static<typeof AddressInput>;

export const TravelClearOptionInput = Type.Object(
  {
    optionType: Maybe(ShortText('Medical screening option type.')),
    isOptedInForScreening: Maybe(Flag('The traveller takes the medical screening.')),
    isOptedInForCover: Maybe(Flag('The traveller wants cover for the screened conditions.')),
    validation,
  },
  {
    title: 'TravelClearOptionInput',
    description: 'Medical screening (TravelClear) choices of one traveller (spec §2.2).',
  },
);

export const PolicyHolderInput = Type.Object(
  {
    guid: Maybe(ShortText('Client-chosen id of this holder, echoed in per-traveller prices.')),
    isDependent: Maybe(Flag('A dependent (child) rather than an adult traveller.')),
    age: Maybe(
      Type.Integer({ minimum: -1000, maximum: 1000, description: 'Age in years; used when `dateOfBirth` is absent.' }),
    ),
    dateOfBirth: Maybe(DateText('Date of birth, YYYY-MM-DD; wins over `age`.')),
    isPrimary: Maybe(Flag('The primary policy holder who purchases.')),
    firstName: Maybe(Text('First name.', 100)),
    lastName: Maybe(Text('Last name.', 100)),
    phoneNumber: Maybe(ShortText('Phone number.')),
    emailAddress: Maybe(Text('E-mail address.', 254)),
    travelClearOption: Maybe(TravelClearOptionInput),
    residentIdentifier: Maybe(ShortText('Resident identifier.')),
    validation,
  },
  { title: 'PolicyHolderInput', description: 'A traveller or dependent on the policy (spec §2.2 PolicyHolderInput).' },
);
export type PolicyHolderInput = Static<typeof PolicyHolderInput>;

export const RegulatoryDeclarationInput = Type.Object(
  {
    hasAgreed: Maybe(Flag('The customer agreed to the declarations shown in the purchase path.')),
    termConditionId: Maybe(LongDefault0('The term or condition agreed to.')),
  },
  { title: 'RegulatoryDeclarationInput', description: 'A regulatory declaration (spec §2.2).' },
);

export const FootprintsDonationInput = Type.Object(
  {
    donationAmount: Maybe(Amount('Donation amount.')),
    donationProjectId: Maybe(LongDefault0('Donation project.')),
    donationAccountCode: Maybe(ShortText('Donation account code.')),
    validation,
  },
  { title: 'FootprintsDonationInput', description: 'An optional donation (spec §2.2).' },
);

export const BasicOptionInput = Type.Object(
  {
    optionType: Maybe(ShortText('Option type code, e.g. `CRUISE`, `SNOWSPORTS`, `RENTALCAREXCESS`.')),
    isOptedIn: Maybe(Flag('Opt in (true) or out (false) of this option.')),
    optedInTotalValue: Maybe(Amount('Chosen cover value, where the option has one.')),
    optedInOffsetValue: Maybe(Amount('Chosen offset value, where the option has one.')),
    validation,
  },
  { title: 'BasicOptionInput', description: 'An opt-in/opt-out option (spec §2.2).' },
);
export type BasicOptionInput = Static<typeof BasicOptionInput>;

export const AdventureActivitiesOptionInput = Type.Object(
  {
    optionType: Maybe(ShortText('Option type code.')),
    adventureActivityIds: Maybe(
      Type.Array(Long('Adventure activity id.'), { maxItems: 50, description: 'Chosen activities.' }),
    ),
    validation,
  },
  { title: 'AdventureActivitiesOptionInput', description: 'Adventure activities cover (spec §2.2).' },
);

export const SpecifiedItemInput = Type.Object(
  {
    guid: Maybe(ShortText('Client-chosen id of the item.')),
    name: Maybe(Text('Item name.', 100)),
    itemValue: Maybe(Amount('Item value.')),
    itemTypeId: Maybe(LongDefault0('Item type id.')),
    itemTypeCode: Maybe(ShortText('Item type code.')),
    validation,
  },
  { title: 'SpecifiedItemInput', description: 'One specified item (spec §2.2).' },
);

export const SpecifiedItemOptionInput = Type.Object(
  {
    optionType: Maybe(ShortText('Option type code.')),
    specifiedItems: Maybe(Type.Array(SpecifiedItemInput, { maxItems: 30, description: 'Items covered individually.' })),
    validation,
  },
  { title: 'SpecifiedItemOptionInput', description: 'Specified items cover (spec §2.2).' },
);

export const CancellationOptionInput = Type.Object(
  {
    optionType: Maybe(ShortText('Option type code.')),
    cancellationCoverLimit: Maybe(Amount('Chosen cancellation cover limit.')),
    validation,
  },
  { title: 'CancellationOptionInput', description: 'Cancellation cover (spec §2.2).' },
);

export const ExternalIdentifiers = Type.Object(
  {
    externalMembershipProviderId: Maybe(LongDefault0('External membership provider.')),
    externalMembershipNumber: Maybe(ShortText('External membership number.')),
    bookingReference: Maybe(ShortText('Booking reference.')),
    marketingSource: Maybe(ShortText('Marketing source.')),
  },
  { title: 'ExternalIdentifiers', description: 'Identifiers of the quote in other systems (spec §2.2).' },
);

export const QuoteType = Type.Enum([...QUOTE_TYPES], {
  title: 'QuoteType',
  type: 'string',
  description: 'Single trip or annual multi-trip.',
});
export type QuoteType = Static<typeof QuoteType>;

export const QuoteInput = Type.Object(
  {
    cultureCode: Maybe(ShortText('Culture code, e.g. `en-AU`.')),
    customerInterfaceId: Maybe(LongDefault0('Customer interface id.')),
    quoteType: Maybe(QuoteType),
    overrideDuplicateCheck: Maybe(Flag('Skip the duplicate-quote check.')),
    skipPersistence: Maybe(Flag('Price only: the quote is not stored and has no `id`.')),
    planId: Maybe(LongDefault0('The chosen plan (0 = none chosen yet).')),
    quoteReferencePlanId: Maybe(LongDefault0('Reference plan.')),
    homeAddress: Maybe(AddressInput),
    alternateHomeAddress: Maybe(AddressInput),
    destinationCountryCodes: Maybe(
      Type.Array(ShortText('Extended ISO-3166 alpha-3 code (countries, regions, lists).'), {
        maxItems: 50,
        description: 'Destinations.',
      }),
    ),
    departureDate: Maybe(DateText('Departure date (multi-trip: start of cover), YYYY-MM-DD.')),
    returnDate: Maybe(DateText('Return date (multi-trip: end of the longest single trip), YYYY-MM-DD.')),
    coverEndDate: Maybe(DateText('End of cover (multi-trip), YYYY-MM-DD.')),
    campaignCode: Maybe(ShortText('A published discount code.')),
    partnerCode: Maybe(ShortText("Partner code; the token's partner is used for pricing.")),
    tripValue: Maybe(Amount('Total value of the trip (optional rating factor).')),
    footprintsDonation: Maybe(FootprintsDonationInput),
    basicOptions: Maybe(Type.Array(BasicOptionInput, { maxItems: 30 })),
    adventureActivitiesOption: Maybe(AdventureActivitiesOptionInput),
    specifiedItemOption: Maybe(SpecifiedItemOptionInput),
    cancellationOption: Maybe(CancellationOptionInput),
    policyHolders: Maybe(Type.Array(PolicyHolderInput, { maxItems: 20, description: 'Travellers and dependents.' })),
    regulatoryDeclarations: Maybe(Type.Array(RegulatoryDeclarationInput, { maxItems: 20 })),
    externalIdentifiers: Maybe(ExternalIdentifiers),
    validation,
  },
  { title: 'QuoteInput', description: 'What the partner asks to price (spec §2.2 QuoteInput).' },
);
export type QuoteInput = Static<typeof QuoteInput>;
