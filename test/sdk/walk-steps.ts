// Steps of the walks that use no Node API (the browser bundle uses them too).
import type { Body, PartnerClient } from '../../sdk/src/index.js';

/** `days` from today as YYYY-MM-DD (UTC), so the trip never rots. */
export function daysFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export type QuoteInput = Body<'createQuote'>['input'];

/** A single trip from Melbourne to New Zealand for one adult, with every detail stage DETAILS needs. */
export function tripInput(planId: number): QuoteInput {
  return {
    quoteType: 'SINGLETRIP',
    planId,
    homeAddress: { countryCode: 'AUS', provinceCode: 'VIC', addressLine1: '2 Collins St', postalCode: '3000' },
    destinationCountryCodes: ['NZL'],
    departureDate: daysFromToday(20),
    returnDate: daysFromToday(26),
    policyHolders: [
      {
        guid: 'traveller-1',
        dateOfBirth: '1980-02-03',
        isPrimary: true,
        firstName: 'Grace',
        lastName: 'Hopper',
        emailAddress: 'grace@example.com',
        phoneNumber: '+61 400 111 222',
      },
    ],
  };
}

/** A COMP quote at stage DETAILS and the purchase body that buys it with `cardToken`. */
export async function readyPurchase(client: PartnerClient, cardToken: string) {
  const plan = await client.products.plan({ planCode: 'COMP', partnerCode: 'DEMOA' });
  const input = tripInput(required(plan.planId, 'planId'));
  const quote = await client.quotes.create({ stage: 'DETAILS', input });
  const regulatoryDeclarations = (plan.purchaseTermsAndConditions ?? [])
    .filter((term) => term.policyActionTypeId === 1)
    .map((term) => ({ termConditionId: term.termConditionId, hasAgreed: true }));
  const body: Body<'purchaseQuote'> = {
    quote: { id: required(quote.id, 'quote id'), input: { regulatoryDeclarations } },
    cardToken: { token: cardToken, source: 'hosted-page' },
  };
  return { quote, input, body };
}

/** A field the contract marks optional that this step must have. */
export function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`missing ${what}`);
  return value;
}
