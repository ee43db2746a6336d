import { Type, type Static } from 'typebox';
import { DAYS_OF_WEEK } from '../kernel/calendar/local-date.js';

/** Building blocks of the policy records (spec §2.8); every field optional, as the spec says. */

const opt = Type.Optional;
const long = (description?: string) => Type.Integer(description ? { description } : {});
const str = (description?: string) => Type.String(description ? { description } : {});
const double = (description?: string) => Type.Number(description ? { description } : {});

export const Era = Type.Object(
  { name: opt(str('`CE` (common era) or `BCE`.')) },
  { title: 'Era', description: 'An era of a calendar system.' },
);

export const CalendarSystem = Type.Object(
  {
    id: opt(str('Always `ISO`.')),
    name: opt(str('Always `ISO`.')),
    minYear: opt(Type.Integer()),
    maxYear: opt(Type.Integer()),
    eras: opt(Type.Array(Era)),
  },
  { title: 'CalendarSystem', description: 'The calendar a LocalDate is expressed in: the ISO calendar.' },
);

export const LocalDate = Type.Object(
  {
    calendar: opt(CalendarSystem),
    year: opt(Type.Integer()),
    month: opt(Type.Integer({ description: '1–12.' })),
    day: opt(Type.Integer({ description: '1–31.' })),
    dayOfWeek: opt(Type.Enum([...DAYS_OF_WEEK], { type: 'string' })),
    yearOfEra: opt(Type.Integer()),
    era: opt(Era),
    dayOfYear: opt(Type.Integer({ description: '1–366.' })),
  },
  { title: 'LocalDate', description: 'A calendar date without time or zone (spec §2.8 LocalDate).' },
);
export type LocalDate = Static<typeof LocalDate>;

export const PlanShortSummary = Type.Object(
  {
    planId: opt(long()),
    productId: opt(long()),
    planDisplayGroupId: opt(long()),
    saleCurrencyId: opt(long()),
    code: opt(str('Stable across product versions.')),
    shortDescription: opt(str()),
    longDescription: opt(str()),
    underwriterCode: opt(str()),
    isAnnualMultiTrip: opt(Type.Boolean({ description: 'True for annual multi-trip, otherwise single trip.' })),
    quotePanelTypeId: opt(long()),
  },
  { title: 'PlanShortSummary', description: 'The plan the policy was bought on, as it was at purchase.' },
);

export const Currency = Type.Object(
  {
    id: opt(long()),
    symbol: opt(str()),
    code: opt(str('ISO 4217 code, e.g. `AUD`.')),
    description: opt(str()),
    hasMinorUnits: opt(Type.Boolean()),
  },
  { title: 'Currency', description: 'The currency of every financial transaction of the policy.' },
);

export const Address = Type.Object(
  {
    addressLine1: opt(str()),
    addressLine2: opt(str()),
    addressLine3: opt(str()),
    addressLine4: opt(str()),
    postalCode: opt(str()),
    provinceId: opt(long()),
    provinceName: opt(str()),
    countryId: opt(long()),
    countryName: opt(str()),
  },
  { title: 'Address', description: 'The policy holder’s home address (policy form).' },
);

export const AuthorizationPolicy = Type.Object(
  { planId: opt(long()), partnerId: opt(long()), customerUserId: opt(long()) },
  {
    title: 'AuthorizationPolicy',
    description: 'Who may act on the policy: the plan, the partner that sold it and the customer user.',
  },
);

export const ExternalMembership = Type.Object(
  { name: opt(str()), code: opt(str()), number: opt(str()) },
  { title: 'ExternalMembership', description: 'A membership (e.g. a loyalty programme) recorded on the policy.' },
);

export const AuthorizedPerson = Type.Object(
  { firstName: opt(str()), surname: opt(str()), dateOfBirth: opt(LocalDate), email: opt(str()), phone: opt(str()) },
  { title: 'AuthorizedPerson', description: 'The person authorised to answer the medical screening.' },
);

export const TravelClearSummary = Type.Object(
  {
    tamisReferenceNumber: opt(str()),
    screeningDate: opt(str()),
    authorizedPerson: opt(AuthorizedPerson),
    isCovered: opt(Type.Boolean()),
    excess: opt(double()),
  },
  { title: 'TravelClearSummary', description: 'Outcome of the traveller’s medical screening.' },
);

export const TravellerShortSummary = Type.Object(
  {
    travellerId: opt(long()),
    guid: opt(str()),
    displayOrder: opt(Type.Integer()),
    isPrimary: opt(Type.Boolean()),
    title: opt(str()),
    firstName: opt(str()),
    surname: opt(str()),
    age: opt(Type.Integer()),
    emailAddress: opt(str()),
    landLinePhoneNumber: opt(str()),
    mobileNumber: opt(str()),
    dateOfBirth: opt(LocalDate),
    travelClear: opt(TravelClearSummary),
    authorizationPolicy: opt(AuthorizationPolicy),
  },
  { title: 'TravellerShortSummary', description: 'A traveller covered by the policy.' },
);

export const DependentShortSummary = Type.Object(
  {
    dependentId: opt(long()),
    guid: opt(str()),
    displayOrder: opt(Type.Integer()),
    title: opt(str()),
    firstName: opt(str()),
    surname: opt(str()),
    age: opt(Type.Integer()),
    dateOfBirth: opt(LocalDate),
    travelClear: opt(TravelClearSummary),
  },
  { title: 'DependentShortSummary', description: 'A dependent covered by the policy.' },
);

export const PolicyFinancialValue = Type.Object(
  {
    policyHeaderId: opt(long()),
    transactionTypeId: opt(long()),
    amount: opt(double('In the policy currency’s major unit.')),
    optionTypeId: opt(long()),
    travellerSurrogateKey: opt(str()),
    dependentSurrogateKey: opt(str()),
  },
  { title: 'PolicyFinancialValue', description: 'A financial value of the policy.' },
);

export const Audit = Type.Object(
  {
    createdAt: opt(str('UTC, ISO 8601.')),
    updatedAt: opt(str('UTC, ISO 8601.')),
    createdByUserId: opt(long()),
    updatedByUserId: opt(long()),
  },
  { title: 'Audit', description: 'Who created and last changed the record, and when (policy form of Audit).' },
);
