import { Type, type Static } from 'typebox';
import { Validation } from '../kernel/notifications/notification.js';
import { Flag, Long, Maybe, ShortText, Text } from './schemas/common.js';
import { QuoteInput } from './schemas/input.js';
import { QuotePriceResult, QuotePriceSummary } from './schemas/prices.js';
import { QuoteReferral } from './schemas/referral.js';

export * from './schemas/input.js';
export * from './schemas/prices.js';
export * from './schemas/referral.js';

/** The Quote resource (spec §2.2) and the quote endpoints' parameters. */

const EXAMPLE_INPUT = {
  quoteType: 'SINGLETRIP',
  homeAddress: { countryCode: 'AUS', provinceCode: 'NSW' },
  destinationCountryCodes: ['JPN'],
  departureDate: '2026-12-01',
  returnDate: '2026-12-15',
  policyHolders: [{ guid: 'traveller-1', age: 34, isPrimary: true }],
};

export const ClientInfo = Type.Object(
  {
    ipAddress: Maybe(ShortText('Customer IP address.')),
    userAgent: Maybe(Text('Customer browser user agent.', 500)),
    referer: Maybe(Text('Referring page.', 500)),
  },
  { title: 'ClientInfo', description: "The end customer's client (spec §2.1 ClientInfo)." },
);
export type ClientInfo = Static<typeof ClientInfo>;

export const QuoteAudit = Type.Object(
  {
    createdAt: Maybe(Type.String({ description: 'When the quote was first stored (UTC, ISO 8601).' })),
    updatedAt: Maybe(Type.String({ description: 'When the quote was last stored (UTC, ISO 8601).' })),
    createdByUsername: Maybe(Type.String({ description: 'User who created the quote.' })),
    updatedByUsername: Maybe(Type.String({ description: 'User who last changed the quote.' })),
    createdByUserId: Maybe(Long('User id of the creator.')),
    updatedByUserId: Maybe(Long('User id of the last change.')),
  },
  { title: 'QuoteAudit', description: 'Who stored the quote and when (spec §2.1 Audit, quote form).' },
);
export type QuoteAudit = Static<typeof QuoteAudit>;

export const QuoteStage = Type.Enum(['INITIAL', 'BASEQUOTE', 'OPTIONS', 'DETAILS', 'MEDICAL_SCREENING', 'PAYMENT'], {
  title: 'QuoteStage',
  type: 'string',
  description: 'Stage of the purchase path (spec §3); see docs/api-contract.md "Quotes" for what each stage requires.',
});
export type QuoteStage = Static<typeof QuoteStage>;

export const Quote = Type.Object(
  {
    id: Maybe(Type.String({ maxLength: 64, description: 'Opaque quote id (server-owned).' })),
    isNew: Maybe(Flag('True on the answer that created the quote.')),
    isPurchased: Maybe(Flag('The policy has been bought (server-owned).')),
    hasConfigChanged: Maybe(Flag('The catalogue or rate version that priced the quote before is no longer in force.')),
    isPurchaseInitiated: Maybe(Flag('A purchase has started (server-owned).')),
    clientSessionId: Maybe(ShortText("The partner's session id.")),
    policyNumber: Maybe(ShortText('Set once the purchase has completed (server-owned).')),
    stage: Maybe(QuoteStage),
    evaluatedAt: Maybe(Type.String({ description: 'When the quote was last priced (UTC, ISO 8601).' })),
    input: Maybe(QuoteInput),
    priceResults: Maybe(Type.Array(QuotePriceResult, { maxItems: 50 })),
    prices: Maybe(
      Type.Array(QuotePriceSummary, {
        maxItems: 50,
        description: 'The available plans with prices for the quoted parameters.',
      }),
    ),
    clientInfo: Maybe(ClientInfo),
    audit: Maybe(QuoteAudit),
    customerUserId: Maybe(Long('Customer user.')),
    brandCode: Maybe(ShortText('Brand of the quote.')),
    validation: Maybe(Validation),
    referral: Maybe(QuoteReferral),
  },
  {
    title: 'Quote',
    description: 'A quote (spec §2.2 Quote).',
    examples: [
      {
        id: 'q_01JD8ZQ6M4X3K9V2T7B5N1C0RA',
        isNew: true,
        isPurchased: false,
        isPurchaseInitiated: false,
        stage: 'BASEQUOTE',
        evaluatedAt: '2026-11-22T00:00:00.000Z',
        input: EXAMPLE_INPUT,
        brandCode: 'brandau',
        validation: { isValid: true, errors: [] },
      },
    ],
  },
);
export type Quote = Static<typeof Quote>;

/** Request body of create and update: a Quote whose `input` is required; server-owned fields are ignored. */
export const QuoteRequest = Type.Object(
  { ...Quote.properties, input: QuoteInput },
  {
    title: 'QuoteRequest',
    examples: [{ stage: 'BASEQUOTE', input: EXAMPLE_INPUT }],
    description:
      'A Quote to evaluate; `input` is required, server-owned fields (`id`, prices, audit, flags, `policyNumber`, `referral`) are ignored.',
  },
);
export type QuoteRequest = Static<typeof QuoteRequest>;

export const QuoteIdParam = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'A quote id as returned when the quote was created.',
});
