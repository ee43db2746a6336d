import fc from 'fast-check';
import Value from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { premiumOf } from './breakdown.js';
import { priceQuote } from './engine.js';
import { rateTableArb, requestArb } from './fixtures/arbitraries.js';
import { sum } from '../kernel/money/arithmetic.js';
import { RateTable } from './rate-tables.js';
import type { PlanPrice, PriceBreakdown } from './results.js';
import type { PricingRequest } from './request.js';

const tableAndRequest = rateTableArb.chain((table) => requestArb(table));
const RUNS = { numRuns: 300 };

const FIELDS: (keyof PriceBreakdown)[] = [
  'saleListPrice',
  'saleListCommission',
  'netListPrice',
  'saleCampaignDiscount',
  'netCampaignDiscount',
  'salePartnerDiscount',
];

/** Every number anywhere in the value: finite, not negative; money (all but rates) whole. */
function assertSaneNumbers(value: unknown, key = ''): void {
  if (typeof value === 'number') {
    expect(Number.isFinite(value), key).toBe(true);
    expect(value, key).toBeGreaterThanOrEqual(0);
    if (!key.endsWith('Percentage')) expect(Number.isInteger(value), key).toBe(true);
  } else if (Array.isArray(value))
    value.forEach((v) => {
      assertSaneNumbers(v, key);
    });
  else if (value !== null && typeof value === 'object')
    Object.entries(value).forEach(([k, v]) => {
      assertSaneNumbers(v, k);
    });
}

function assertPartsSumToTotals(p: PlanPrice): void {
  const { basePriceResult: base, optionPriceResults: options } = p.result;
  const components = [base, ...options];
  for (const c of components) {
    expect(c.netListPrice).toBe(c.saleListPrice - c.saleListCommission);
    const details: PriceBreakdown[] = c.priceDetails;
    for (const part of [c, ...details]) {
      expect(premiumOf(part)).toBeGreaterThanOrEqual(0);
      expect(part.netListPrice - part.netCampaignDiscount).toBeGreaterThanOrEqual(0);
    }
    if (details.length > 0) for (const f of FIELDS) expect(sum(details.map((d) => d[f])), f).toBe(c[f]);
  }
  // Each tax: the components' shares sum to the policy tax.
  p.summary.basePrice.taxComponents.forEach((tax, t) => {
    expect(sum(components.map((c) => c.taxComponents[t]?.taxAmount ?? 0))).toBe(tax.taxAmount);
  });
  const s = p.summary;
  const optionSummaries = [
    ...s.basicOptionPrices,
    s.adventureActivitiesOptionPrice,
    s.specifiedItemOptionPrice,
    s.tripCancellationPrice,
  ].filter((o) => o !== undefined);
  for (const o of optionSummaries) if (o.items.length > 0) expect(sum(o.items.map((i) => i.price))).toBe(o.price);
  const taxTotal = sum(s.basePrice.taxComponents.map((t) => t.taxAmount));
  expect(s.totalPrice).toBe(s.basePrice.price + sum(optionSummaries.map((o) => o.price)) + taxTotal);
  expect(s.campaignDiscount).toBe(s.basePrice.campaignDiscount + sum(optionSummaries.map((o) => o.campaignDiscount)));
  expect(s.partnerDiscount).toBe(s.basePrice.partnerDiscount + sum(optionSummaries.map((o) => o.partnerDiscount)));
  expect(optionSummaries).toHaveLength(options.length);
}

const total = (request: PricingRequest, planCode: string) => {
  const outcome = priceQuote({ ...request, planCodes: [planCode] })[0];
  return outcome?.outcome === 'PRICED' ? outcome.summary.totalPrice : undefined;
};

describe('pricing properties', () => {
  it('generated tables are valid RateTables', () => {
    fc.assert(
      fc.property(rateTableArb, (table) => Value.Check(RateTable, table)),
      { numRuns: 100 },
    );
  });

  it('never throws, answers every plan asked, with sane numbers whose parts sum to their totals', () => {
    fc.assert(
      fc.property(tableAndRequest, (request) => {
        const outcomes = priceQuote(request);
        expect(outcomes.map((o) => o.planCode)).toEqual(request.planCodes);
        for (const outcome of outcomes) {
          if (outcome.outcome === 'NOT_PRICEABLE') continue;
          assertSaneNumbers(outcome.result);
          assertSaneNumbers(outcome.summary);
          assertPartsSumToTotals(outcome);
        }
      }),
      RUNS,
    );
  });

  it('is deterministic: the same request gives the same answer, with or without the memoised index', () => {
    fc.assert(
      fc.property(tableAndRequest, (request) => {
        const first = priceQuote(request);
        expect(priceQuote(request)).toEqual(first);
        expect(priceQuote({ ...request, rateTable: structuredClone(request.rateTable) })).toEqual(first);
      }),
      { numRuns: 100 },
    );
  });

  it('never falls as the trip gets longer (generated prices do not fall with duration)', () => {
    fc.assert(
      fc.property(tableAndRequest, fc.integer({ min: 1, max: 100 }), (request, extra) => {
        for (const planCode of ['P1', 'P2']) {
          const shorter = total(request, planCode);
          const longer = total({ ...request, tripDurationDays: request.tripDurationDays + extra }, planCode);
          if (shorter !== undefined && longer !== undefined) expect(longer).toBeGreaterThanOrEqual(shorter);
        }
      }),
      RUNS,
    );
  });

  it('never falls as a traveller gets older (generated prices do not fall with age)', () => {
    fc.assert(
      fc.property(tableAndRequest, fc.nat(), fc.integer({ min: 1, max: 60 }), (request, which, years) => {
        if (request.travellers.length === 0) return;
        const i = which % request.travellers.length;
        const older = request.travellers.map((t, j) => (j === i ? { ...t, age: t.age + years } : t));
        for (const planCode of ['P1', 'P2']) {
          const before = total(request, planCode);
          const after = total({ ...request, travellers: older }, planCode);
          if (before !== undefined && after !== undefined) expect(after).toBeGreaterThanOrEqual(before);
        }
      }),
      RUNS,
    );
  });

  it('never throws on malformed numbers either', () => {
    const odd = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -1, 0.5, 2 ** 60);
    fc.assert(
      fc.property(tableAndRequest, odd, odd, odd, (request, a, b, c) => {
        const outcomes = priceQuote({
          ...request,
          tripDurationDays: a,
          excess: b,
          travellers: request.travellers.map((t) => ({ ...t, age: c })),
        });
        for (const o of outcomes) if (o.outcome === 'PRICED') assertSaneNumbers(o.summary);
      }),
      { numRuns: 100 },
    );
  });
});
