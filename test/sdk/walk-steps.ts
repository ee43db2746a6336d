// Steps of the walks that use no Node API (the browser bundle uses them too).
import type { Body, PartnerClient } from '../../sdk/src/index.js';
import { daysFromToday, demoTrip } from '../helpers/demo-trip.js';

export { daysFromToday };

export type QuoteInput = Body<'createQuote'>['input'];

/** The demo trip (test/helpers/demo-trip.ts), its traveller named for the steps that name one. */
export function tripInput(planId: number): QuoteInput {
  return demoTrip(planId, { guid: 'traveller-1' });
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
