import { beforeAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from '../catalogue/compile.js';
import { snapshotOf, type CatalogueSnapshot } from '../catalogue/reader.js';
import { brandOf } from '../catalogue/service.js';
import type { QuoteInput } from '../quotes/schemas.js';
import type { StoredQuote } from '../quotes/stored-quote.js';
import { ANSWERED_BY, screened, type TestCondition } from '../../test/screening/screened.js';
import { buildPolicyRequest } from './policy-request.js';

let snapshot: CatalogueSnapshot;
beforeAll(async () => {
  const { catalogue } = await validateCatalogue('catalogue');
  if (!catalogue) throw new Error('catalogue invalid');
  snapshot = snapshotOf(catalogue, 1, '2026-11-01T00:00:00.000Z');
});

const optIn = (cover: boolean) => ({
  optionType: 'TRAVELCLEAR',
  isOptedInForScreening: true,
  isOptedInForCover: cover,
});
const input: QuoteInput = {
  quoteType: 'SINGLETRIP',
  homeAddress: { countryCode: 'AUS', provinceCode: 'NSW', addressLine1: '1 George St', postalCode: '2000' },
  destinationCountryCodes: ['IDN'],
  departureDate: '2026-12-10',
  returnDate: '2026-12-23',
  policyHolders: ['covered', 'declined', 'screened-only', 'not-opted'].map((guid, i) => ({
    guid,
    isPrimary: i === 0,
    firstName: 'Ann',
    lastName: 'Lee',
    dateOfBirth: '1984-05-01',
    ...(i < 3 ? { travelClearOption: optIn(i !== 2) } : {}),
  })),
};

async function travelClears(conditions: Record<string, TestCondition[]>) {
  const brand = brandOf(snapshot, 'brandau');
  const plan = brand.plans.find((p) => p.code === 'COMP');
  if (!plan) throw new Error('no COMP plan');
  const screenings = await Promise.all(Object.entries(conditions).map(([guid, c]) => screened(guid, c)));
  const request = buildPolicyRequest({
    quote: { id: 'q1', partnerId: 1, customerUserId: 0, input } as unknown as StoredQuote,
    input,
    price: { planId: plan.planId, totalPrice: 50_000, standardExcess: 25_000 },
    plan,
    brand,
    snapshot,
    createdByUserId: 1,
    client: {},
    today: '2026-11-22',
    screenings,
  });
  return [...request.travellers, ...request.dependents].map((p) => [p.guid, p.travelClear]);
}

describe('the policy’s TravelClearSummary from the screenings at purchase (real engine assessments)', () => {
  it('records reference, date, who answered, cover and the excess (plan’s + screening’s) per traveller', async () => {
    const summaries = Object.fromEntries(
      await travelClears({ covered: ['TEST_COVERED'], declined: ['TEST_DECLINE_TRAVELLER'], 'screened-only': [] }),
    );
    expect(summaries.covered).toEqual({
      tamisReferenceNumber: 'TC-COVERED',
      screeningDate: '2026-11-20T09:00:00.000Z',
      authorizedPerson: ANSWERED_BY,
      isCovered: true,
      // 250.00 plan excess + 100.00 TEST_COVERED excess.
      excessMinor: 35_000,
    });
    expect(summaries.declined).toMatchObject({ isCovered: false, tamisReferenceNumber: 'TC-DECLINED' });
    // Screened but not opted in for cover: not covered, the plan's excess only.
    expect(summaries['screened-only']).toMatchObject({ isCovered: false, excessMinor: 25_000 });
    expect(summaries['not-opted']).toBeUndefined();
  });
});
