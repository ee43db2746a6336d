import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { CARDS, detailedTrip, NOW, planOf, purchase, purchaseBody, type PurchaseAnswer } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`purchase without an e-mail address (${DIALECT})`, () => {
  it('issues the policy and warns NO_EMAIL_ADDRESS in the brand’s words (isValid stays true)', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau');
    const plan = await planOf(t, 'brandau', 'COMP');
    const trip = detailedTrip(plan.planId);
    const input = { ...trip, policyHolders: trip.policyHolders.map(({ emailAddress: _e, ...h }) => h) };
    const created = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/quote',
      headers,
      payload: { input },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json<{ id: string }>().id;
    const staged = await t.app.inject({
      method: 'PUT',
      url: `/quotes/v2/brandau/quote/${id}`,
      headers,
      payload: { stage: 'DETAILS', input },
    });
    expect(staged.json<{ stage: string }>().stage).toBe('DETAILS');
    const res = await purchase(t, purchaseBody({ id, termIds: plan.termIds }, CARDS.approved));
    const body = res.json<PurchaseAnswer>();
    expect(body.quote.policyNumber).toMatch(/^BAC/);
    expect(body.validation.isValid).toBe(true);
    expect(body.validation.errors).toEqual([
      expect.objectContaining({
        code: 'NO_EMAIL_ADDRESS',
        message: 'We need an e-mail address to send your policy documents.',
      }),
    ]);
  });
});
