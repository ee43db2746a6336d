import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { books, CARDS, detailedTrip, NOW, planOf, purchase, purchaseBody, type PurchaseAnswer } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

/**
 * The partner flow the spec allows: create the quote with the trip and a plan (it stays at
 * BASEQUOTE, no stage is ever PUT) and send the holders' names and contacts in the purchase body.
 */
async function baseQuote(t: TestApp): Promise<{ id: string; termIds: number[] }> {
  const plan = await planOf(t, 'brandau', 'COMP');
  const { policyHolders, ...trip } = detailedTrip(plan.planId);
  const created = await t.app.inject({
    method: 'POST',
    url: '/quotes/v2/brandau/quote',
    headers: await bearerFor(t, 'brandau'),
    payload: {
      input: {
        ...trip,
        policyHolders: policyHolders.map(({ guid, dateOfBirth, isPrimary, isDependent }) => ({
          guid,
          dateOfBirth,
          isPrimary,
          isDependent,
        })),
      },
    },
  });
  expect(created.statusCode).toBe(200);
  const quote = created.json<{ id: string; stage: string; validation: { isValid: boolean } }>();
  expect(quote).toMatchObject({ stage: 'BASEQUOTE', validation: { isValid: true } });
  return { id: quote.id, termIds: plan.termIds };
}

/** The holders' names and contacts, as a partner sends them at purchase. */
function holderDetails() {
  return detailedTrip(0).policyHolders.map(({ firstName, lastName, emailAddress, phoneNumber }) => ({
    firstName,
    lastName,
    ...(emailAddress ? { emailAddress } : {}),
    ...(phoneNumber ? { phoneNumber } : {}),
  }));
}

async function storedStage(t: TestApp, id: string): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/quotes/v2/brandau/quote/${id}`,
    headers: await bearerFor(t, 'brandau'),
  });
  return res.json<{ stage: string }>().stage;
}

describe(`purchase readiness is judged by the data (${DIALECT})`, () => {
  it('buys a BASEQUOTE quote whose holders the purchase body completes, and stores the stage it reached', async () => {
    const t = getApp();
    const quote = await baseQuote(t);
    const body = purchaseBody(quote, CARDS.approved);
    Object.assign(body.quote.input, { policyHolders: holderDetails() });
    const res = await purchase(t, body);
    expect(res.statusCode).toBe(200);
    const answer = res.json<PurchaseAnswer>();
    expect(answer.validation).toEqual({ isValid: true, errors: [] });
    expect(answer.paymentResult).toBe('APPROVED');
    expect(answer.quote).toMatchObject({ isPurchased: true, stage: 'PAYMENT' });
    expect(await books(t, quote.id)).toMatchObject({ policies: 1, captures: 1 });
  });

  it('a declined card leaves the quote at the stage its data reached (written with the claim)', async () => {
    const t = getApp();
    const quote = await baseQuote(t);
    const body = purchaseBody(quote, CARDS.declined);
    Object.assign(body.quote.input, { policyHolders: holderDetails() });
    const answer = (await purchase(t, body)).json<PurchaseAnswer>();
    expect(answer.paymentResult).toBe('DECLINED');
    // No adult chose a medical screening option: the data reaches DETAILS, not MEDICAL_SCREENING.
    expect(await storedStage(t, quote.id)).toBe('DETAILS');
  });

  it('still refuses a quote whose data is missing, naming each missing field', async () => {
    const t = getApp();
    const quote = await baseQuote(t);
    const body = purchaseBody(quote, CARDS.approved);
    const [primary, ...others] = holderDetails();
    Object.assign(body.quote.input, { policyHolders: [{ ...primary, phoneNumber: undefined }, ...others] });
    const answer = (await purchase(t, body)).json<PurchaseAnswer>();
    expect(answer.paymentResult).toBeUndefined();
    expect(answer.validation.errors).toEqual([
      expect.objectContaining({
        code: 'QUOTE_NOT_READY',
        property: 'quote.stage',
        tokens: { stage: 'OPTIONS', required: 'DETAILS' },
      }),
      expect.objectContaining({
        code: 'STAGE_REQUIREMENT_MISSING',
        property: 'quote.input.policyHolders[0].phoneNumber',
        tokens: { stage: 'DETAILS' },
      }),
    ]);
    expect(await storedStage(t, quote.id)).toBe('BASEQUOTE');
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, authorisations: 0 });
  });
});
