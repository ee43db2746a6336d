import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import {
  books,
  CARDS,
  detailedTrip,
  NOW,
  planOf,
  purchase,
  purchaseBody,
  type PurchaseAnswer,
} from '../purchases/support.js';
import { walk } from './support.js';

// The whole path on the running app's own ports: the stored catalogue's engine, the screening
// service behind the quote and the purchase (no injected screenings).
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

interface QuoteAnswer {
  stage: string;
  validation: { isValid: boolean; errors: { code: string; property?: string }[] };
  priceResults: {
    planId: number;
    optionPriceResults?: { optionTypeCode?: string; policyHolderGuid?: string; saleListPrice?: number }[];
  }[];
}

/** A brandau COMP quote at DETAILS whose first adult opted in for screening and cover. */
async function screenedQuote(t: TestApp) {
  const plan = await planOf(t, 'brandau', 'COMP');
  const trip = detailedTrip(plan.planId);
  // Every adult says whether they screen (the stage's rule); the first opts in for screening and cover.
  const policyHolders = trip.policyHolders.map((h, i) => ({
    ...h,
    travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: i === 0, isOptedInForCover: i === 0 },
  }));
  const input = { ...trip, policyHolders };
  const put = (id: string, input: object) =>
    bearerFor(t, 'brandau').then((headers) =>
      t.app.inject({
        method: 'PUT',
        url: `/quotes/v2/brandau/quote/${id}`,
        headers,
        payload: { stage: 'MEDICAL_SCREENING', input },
      }),
    );
  const created = await t.app.inject({
    method: 'POST',
    url: '/quotes/v2/brandau/quote',
    headers: await bearerFor(t, 'brandau'),
    payload: { input },
  });
  expect(created.statusCode).toBe(200);
  const id = created.json<{ id: string }>().id;
  const waiting = (await put(id, input)).json<QuoteAnswer>();
  expect(waiting.stage).toBe('DETAILS');
  expect(waiting.validation.errors.map((e) => e.code)).toContain('SCREENING_REQUIRED');
  return {
    id,
    trip: input,
    plan,
    refresh: (changed: object = input) => put(id, changed).then((r) => r.json<QuoteAnswer>()),
  };
}

const medicalLines = (quote: QuoteAnswer, planId: number) =>
  (quote.priceResults.find((p) => p.planId === planId)?.optionPriceResults ?? []).filter(
    (o) => o.optionTypeCode === 'MEDICAL',
  );

describe(`medical screening from quote to policy (${DIALECT})`, () => {
  it('prices a covered condition into the quote, sells it and shows the screening on the policy', async () => {
    const t = getApp();
    const quote = await screenedQuote(t);
    const screening = await walk(t, quote.id, ['TEST_COVERED']);
    const refreshed = await quote.refresh();
    expect(refreshed.stage).toBe('MEDICAL_SCREENING');
    expect(medicalLines(refreshed, quote.plan.planId)).toEqual([
      expect.objectContaining({ policyHolderGuid: 'adult-1', saleListPrice: 60 }),
    ]);
    const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
    const sold = res.json<PurchaseAnswer>();
    expect(sold.quote.policyNumber).toBeDefined();
    const policy = await t.app.inject({
      method: 'GET',
      url: `/policies/v1/brandau/policies/${sold.quote.policyNumber}`,
      headers: await bearerFor(t, 'brandau'),
    });
    const travellers = policy.json<{ travellers: { guid: string; travelClear?: Record<string, unknown> }[] }>()
      .travellers;
    expect(travellers.find((p) => p.guid === 'adult-1')?.travelClear).toMatchObject({
      tamisReferenceNumber: screening.result?.tamisReferenceNumber,
      isCovered: true,
    });
  });

  it('holds a referred traveller: the purchase is refused before any money moves', async () => {
    const t = getApp();
    const quote = await screenedQuote(t);
    await walk(t, quote.id, ['TEST_REFERRED']);
    await quote.refresh();
    const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
    const body = res.json<PurchaseAnswer>();
    expect(body.quote.isPurchased).toBe(false);
    expect(body.validation.errors.map((e) => e.code)).toContain('SCREENING_REFERRED');
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0, authorisations: 0 });
  });

  it('makes the screening stale when the trip changes, dropping the medical premium until re-screened', async () => {
    const t = getApp();
    const quote = await screenedQuote(t);
    await walk(t, quote.id, ['TEST_COVERED']);
    const changed = await quote.refresh({ ...quote.trip, destinationCountryCodes: ['USA'] });
    expect(changed.stage).toBe('DETAILS');
    expect(changed.validation.errors.map((e) => e.code)).toContain('SCREENING_STALE');
    expect(medicalLines(changed, quote.plan.planId)).toEqual([]);
    await walk(t, quote.id, ['TEST_COVERED']);
    expect((await quote.refresh({ ...quote.trip, destinationCountryCodes: ['USA'] })).stage).toBe('MEDICAL_SCREENING');
  });
});
