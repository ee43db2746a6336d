import { Type, type Static } from 'typebox';
import { Validation } from '../kernel/notifications/notification.js';
import { CardTokenInput, ThreeDsRequestInfo } from '../purchases/schemas.js';
import { ClientInfo, QuoteInput, QuotePriceResult, QuotePriceSummary, QuoteReferral } from '../quotes/schemas.js';
import { Maybe, Money } from '../quotes/schemas/common.js';
import { changeFields, changeOutcomeFields, PolicyChangeAmounts } from './schemas-shared.js';

/** Shapes of amending a policy: preview (`AmendmentRequest` → `Amendment`), then confirm. */

const EXAMPLE_INPUT = {
  quoteType: 'SINGLETRIP',
  planId: 101,
  homeAddress: { countryCode: 'AUS', provinceCode: 'NSW' },
  destinationCountryCodes: ['JPN'],
  departureDate: '2026-12-01',
  returnDate: '2026-12-20',
  policyHolders: [{ guid: 'traveller-1', age: 34, isPrimary: true, firstName: 'Alex', lastName: 'Smith' }],
};

export const AmendmentRequest = Type.Object(
  {
    input: QuoteInput,
    clientInfo: Maybe(ClientInfo),
  },
  {
    title: 'AmendmentRequest',
    description:
      'The policy as it should be: the whole QuoteInput (same shape and validation as a quote), not a patch. What may change depends on the plan and on whether the trip has started (docs/api-contract.md, "Changing a policy").',
    examples: [{ input: EXAMPLE_INPUT, clientInfo: { ipAddress: '203.0.113.7' } }],
  },
);
export type AmendmentRequest = Static<typeof AmendmentRequest>;

const amounts = (description: string) => Maybe({ ...PolicyChangeAmounts, description });

export const Amendment = Type.Object(
  {
    ...changeFields,
    input: Maybe(QuoteInput),
    priceResults: Maybe(
      Type.Array(QuotePriceResult, { maxItems: 50, description: 'The amended policy priced at today’s rates.' }),
    ),
    prices: Maybe(Type.Array(QuotePriceSummary, { maxItems: 50, description: 'Price summary of the amended plan.' })),
    paidToDate: amounts('What the policy has paid so far, over all its transactions.'),
    repriced: amounts('What the policy costs as amended, at today’s rates (fees excluded).'),
    difference: amounts(
      'repriced − paidToDate part by part, plus the amendment fee: the money of the transaction this amendment writes.',
    ),
    transactionAmount: Maybe(
      Money(
        '= difference.transactionAmount: positive, the customer pays it on confirm (a card is needed); negative, it is refunded to the policy’s card(s); 0, nothing moves.',
      ),
    ),
    // Extension (docs/api-contract.md, "Referrals"): the amendment's referral to an underwriter.
    referral: Maybe(QuoteReferral),
    ...changeOutcomeFields,
    validation: Maybe(Validation),
  },
  {
    title: 'Amendment',
    description:
      'A priced amendment of a policy. With `validation.isValid` false nothing is stored and there is no `id`: fix the input and preview again.',
    examples: [
      {
        id: '3f1c2b9e-7d4a-4e8b-9c61-0a5d2e7f4b13',
        status: 'PREVIEW',
        expiresAt: '2026-11-22T00:30:00.000Z',
        policyNumber: 'TIAU260000042',
        sequenceNumber: 2,
        currencyCode: 'AUD',
        input: EXAMPLE_INPUT,
        paidToDate: {
          premium: 100,
          discount: 0,
          taxes: [{ name: 'GST', amount: 10 }],
          footprintsDonation: 0,
          fees: [],
          transactionAmount: 110,
        },
        repriced: {
          premium: 120,
          discount: 0,
          taxes: [{ name: 'GST', amount: 12 }],
          footprintsDonation: 0,
          fees: [],
          transactionAmount: 132,
        },
        difference: {
          premium: 20,
          discount: 0,
          taxes: [{ name: 'GST', amount: 2 }],
          footprintsDonation: 0,
          fees: [],
          transactionAmount: 22,
        },
        transactionAmount: 22,
        createdAt: '2026-11-22T00:00:00.000Z',
        validation: { isValid: true, errors: [] },
      },
    ],
  },
);
export type Amendment = Static<typeof Amendment>;

export const AmendmentConfirmRequest = Type.Object(
  {
    cardToken: Maybe({
      ...CardTokenInput,
      description:
        "The card to charge when `transactionAmount` is positive; ignored otherwise (refunds go to the cards that paid). A policy bought on account takes none (its charge goes to the partner's account): a token sent is 400 `CARD_TOKEN_NOT_ACCEPTED`.",
    }),
    threeDSRequestInfo: Maybe({
      ...ThreeDsRequestInfo,
      description: 'Browser data for 3-D Secure; on the confirm after a challenge, its outcome (as on a purchase).',
    }),
    clientInfo: Maybe(ClientInfo),
  },
  {
    title: 'AmendmentConfirmRequest',
    description: 'Applies a previewed amendment, paying or refunding its difference.',
    examples: [{ cardToken: { token: 'tok_sandbox_approved', source: 'hosted-page' } }],
  },
);
export type AmendmentConfirmRequest = Static<typeof AmendmentConfirmRequest>;
