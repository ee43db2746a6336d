import { Type, type Static } from 'typebox';
import { BRAND_CODES } from '../kernel/brands.js';
import { PAYMENT_METHODS } from '../kernel/money/payment-methods.js';

/**
 * Everything a completed purchase knows that a policy records. Not an HTTP shape: the purchase
 * builds it from the quote, the plan in force, the catalogue and the payment, and calls
 * `issuePolicy` inside its own transaction. Money is integer minor units of the plan currency.
 */

const text = (max = 200) => Type.String({ minLength: 1, maxLength: max });
const minor = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const id = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const isoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const opt = Type.Optional;

export const PlanSnapshot = Type.Object({
  planId: id,
  productId: id,
  planDisplayGroupId: opt(id),
  quotePanelTypeId: opt(id),
  code: text(),
  shortDescription: Type.String({ maxLength: 500 }),
  longDescription: Type.String({ maxLength: 4000 }),
  underwriterCode: Type.String({ maxLength: 100 }),
  isAnnualMultiTrip: Type.Boolean(),
  currency: Type.Object({
    id: opt(id),
    code: Type.String({ pattern: '^[A-Z]{3}$' }),
    symbol: Type.String({ maxLength: 10 }),
    description: Type.String({ maxLength: 100 }),
    /** Digits after the decimal point: 2 for AUD, 0 for JPY. */
    minorUnits: Type.Integer({ minimum: 0, maximum: 4 }),
  }),
  policyNumberPrefix: Type.String({ maxLength: 20, pattern: '^[A-Za-z0-9]*$' }),
  /** See policy-number.ts for the grammar. */
  policyNumberFormat: text(100),
  /** ISO 3166 alpha-2 of the jurisdiction the policy is issued under. */
  jurisdictionCountryCode: Type.String({ pattern: '^[A-Za-z]{2}$' }),
});

export const HomeAddress = Type.Object({
  addressLine1: opt(Type.String({ maxLength: 200 })),
  addressLine2: opt(Type.String({ maxLength: 200 })),
  addressLine3: opt(Type.String({ maxLength: 200 })),
  addressLine4: opt(Type.String({ maxLength: 200 })),
  postalCode: opt(Type.String({ maxLength: 20 })),
  provinceId: opt(id),
  provinceCode: opt(Type.String({ maxLength: 10 })),
  provinceName: opt(Type.String({ maxLength: 100 })),
  countryId: opt(id),
  countryCode: Type.String({ pattern: '^[A-Za-z]{2}$' }),
  countryName: text(100),
});

export const TravelClear = Type.Object({
  tamisReferenceNumber: opt(Type.String({ maxLength: 100 })),
  screeningDate: opt(Type.String({ maxLength: 40 })),
  authorizedPerson: opt(
    Type.Object({
      firstName: opt(Type.String({ maxLength: 100 })),
      surname: opt(Type.String({ maxLength: 100 })),
      dateOfBirth: opt(isoDate),
      email: opt(Type.String({ maxLength: 200 })),
      phone: opt(Type.String({ maxLength: 40 })),
    }),
  ),
  isCovered: Type.Boolean(),
  excessMinor: opt(minor),
});

export const InsuredPerson = Type.Object({
  guid: Type.String({ minLength: 1, maxLength: 64 }),
  isPrimary: opt(Type.Boolean()),
  title: opt(Type.String({ maxLength: 20 })),
  firstName: text(100),
  surname: text(100),
  age: opt(Type.Integer({ minimum: 0, maximum: 130 })),
  dateOfBirth: opt(isoDate),
  emailAddress: opt(Type.String({ maxLength: 200 })),
  landLinePhoneNumber: opt(Type.String({ maxLength: 40 })),
  mobileNumber: opt(Type.String({ maxLength: 40 })),
  travelClear: opt(TravelClear),
});

export const PolicyIssueRequest = Type.Object({
  brandCode: Type.Enum([...BRAND_CODES]),
  partnerId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  /** 0 when the purchase was made without a customer account. */
  customerUserId: id,
  /** The user who made the purchase (a partner user); audit fields carry it. */
  createdByUserId: id,
  quoteId: text(64),
  plan: PlanSnapshot,
  homeAddress: HomeAddress,
  /** IANA zone of the home country or province, e.g. `Australia/Sydney`. */
  presentationTimeZoneCode: text(64),
  travellers: Type.Array(InsuredPerson, { minItems: 1, maxItems: 20 }),
  dependents: Type.Array(InsuredPerson, { maxItems: 20 }),
  destinations: Type.Object({
    /** Extended ISO-3166 alpha-3 codes, in the order the customer chose them. */
    codes: Type.Array(Type.String({ minLength: 2, maxLength: 10 }), { maxItems: 100 }),
    names: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }),
    region: opt(Type.String({ maxLength: 100 })),
    displayDescription: opt(Type.String({ maxLength: 500 })),
  }),
  departureDate: isoDate,
  coverEndDate: isoDate,
  amounts: Type.Object({
    premium: minor,
    discount: minor,
    taxes: Type.Array(Type.Object({ name: text(100), amount: minor }), { maxItems: 20 }),
    donation: minor,
    /** Must equal premium − discount + taxes + donation. */
    total: minor,
  }),
  options: Type.Array(
    Type.Object({
      optionTypeId: id,
      name: text(200),
      description: opt(Type.String({ maxLength: 2000 })),
      displayOrder: opt(Type.Integer({ minimum: 0 })),
    }),
    { maxItems: 50 },
  ),
  specifiedItems: Type.Array(
    Type.Object({ name: text(200), serialNumber: opt(Type.String({ maxLength: 100 })), valueMinor: minor }),
    { maxItems: 50 },
  ),
  adventure: opt(
    Type.Object({
      level: Type.String({ maxLength: 100 }),
      activities: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }),
    }),
  ),
  excessMinor: minor,
  externalMemberships: Type.Array(
    Type.Object({
      name: Type.String({ maxLength: 200 }),
      code: Type.String({ maxLength: 50 }),
      number: Type.String({ maxLength: 100 }),
    }),
    { maxItems: 20 },
  ),
  client: Type.Object({
    ipAddress: opt(Type.String({ maxLength: 64 })),
    ipAddressCountry: opt(Type.String({ maxLength: 2 })),
    userAgent: opt(Type.String({ maxLength: 1000 })),
  }),
  /** The payment gateway's reference for the charge that paid for the policy. */
  paymentReference: opt(Type.String({ maxLength: 200 })),
  /** How the policy is paid (kernel/money/payment-methods.ts); absent in requests stored before on-account: CARD. */
  paymentMethod: opt(Type.Enum([...PAYMENT_METHODS])),
  /** The partner's `externalIdentifiers.bookingReference` of the quote (partner events carry it). */
  bookingReference: opt(Type.String({ maxLength: 50 })),
  referencePolicyWordingId: opt(id),
  regulatoryWordingTranslationName: opt(Type.String({ maxLength: 200 })),
  binderId: opt(id),
  /** The quote was referred and an underwriter approved it: the purchase's detail is `Authorised`. */
  isAuthorised: opt(Type.Boolean()),
});
export type PolicyIssueRequest = Static<typeof PolicyIssueRequest>;
export type InsuredPerson = Static<typeof InsuredPerson>;
export type PlanSnapshot = Static<typeof PlanSnapshot>;
export type HomeAddress = Static<typeof HomeAddress>;
