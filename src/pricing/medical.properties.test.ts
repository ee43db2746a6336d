import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { premiumOf } from './breakdown.js';
import { priceQuote } from './engine.js';
import { rateTableArb, requestArb } from './fixtures/arbitraries.js';
import { sum } from '../kernel/money/arithmetic.js';
import { MEDICAL_OPTION_TYPE } from './medical.js';
import type { PlanPrice } from './results.js';
import type { MedicalPremium, PricingRequest } from './request.js';

/** A request and, for some of its travellers (those opted in for cover), a premium on plan P1. */
const withPremiums = rateTableArb
  .chain((table) => requestArb(table))
  .chain((request) =>
    fc
      .tuple(...request.travellers.map(() => fc.option(fc.integer({ min: 0, max: 500_000 }), { nil: undefined })))
      .map((premiums) => {
        const medicalPremiums: MedicalPremium[] = request.travellers.flatMap((t, i) => {
          const premium = premiums[i];
          return premium === undefined ? [] : [{ planCode: 'P1', travellerGuid: t.guid, premium }];
        });
        return { request: { ...request, planCodes: ['P1', 'P2'] }, medicalPremiums };
      }),
  );

const priced = (request: PricingRequest, planCode: string): PlanPrice | undefined => {
  const outcome = priceQuote(request).find((o) => o.planCode === planCode);
  return outcome?.outcome === 'PRICED' ? outcome : undefined;
};

describe('medical premium properties', () => {
  it('totals include each opted-in traveller’s medical premium exactly once; opted-out travellers pay none', () => {
    let checked = 0;
    fc.assert(
      fc.property(withPremiums, ({ request, medicalPremiums }) => {
        const without = priced(request, 'P1');
        const withMedical = priced({ ...request, medicalPremiums }, 'P1');
        if (!without || !withMedical) return;
        if (medicalPremiums.length > 0) checked += 1;
        const lines = withMedical.result.optionPriceResults.filter((o) => o.optionTypeCode === MEDICAL_OPTION_TYPE);
        // One line per opted-in traveller, none for the others.
        expect(lines.map((l) => l.policyHolderGuid).sort()).toEqual(medicalPremiums.map((m) => m.travellerGuid).sort());
        for (const m of medicalPremiums) {
          const line = lines.find((l) => l.policyHolderGuid === m.travellerGuid);
          // Never discounted: the traveller pays the screening's premium as it is.
          expect(line && premiumOf(line)).toBe(m.premium);
          expect(line?.netListPrice).toBe(m.premium - (line?.saleListCommission ?? 0));
        }
        const summaries = withMedical.summary.basicOptionPrices.filter((o) => o.optionType === MEDICAL_OPTION_TYPE);
        expect(sum(summaries.map((s) => s.price))).toBe(sum(medicalPremiums.map((m) => m.premium)));
        // Parts sum to totals: premiums before tax, plus every tax.
        const s = withMedical.summary;
        const options = [
          ...s.basicOptionPrices,
          s.adventureActivitiesOptionPrice,
          s.specifiedItemOptionPrice,
          s.tripCancellationPrice,
        ].filter((o) => o !== undefined);
        const taxes = sum(s.basePrice.taxComponents.map((t) => t.taxAmount));
        expect(s.totalPrice).toBe(s.basePrice.price + sum(options.map((o) => o.price)) + taxes);
        const components = [withMedical.result.basePriceResult, ...withMedical.result.optionPriceResults];
        s.basePrice.taxComponents.forEach((tax, t) => {
          expect(sum(components.map((c) => c.taxComponents[t]?.taxAmount ?? 0))).toBe(tax.taxAmount);
        });
        // Everything else is priced as without screening; discounts do not grow with the loading.
        const pretax = (p: PlanPrice) =>
          p.summary.totalPrice - sum(p.summary.basePrice.taxComponents.map((t) => t.taxAmount));
        expect(pretax(withMedical) - pretax(without)).toBe(sum(medicalPremiums.map((m) => m.premium)));
        expect(withMedical.summary.campaignDiscount).toBe(without.summary.campaignDiscount);
        expect(withMedical.summary.partnerDiscount).toBe(without.summary.partnerDiscount);
      }),
      { numRuns: 300 },
    );
    // The property was exercised on priced plans with screened travellers, not only vacuously.
    expect(checked).toBeGreaterThan(20);
  });

  it('leaves the plans that were not screened unchanged', () => {
    fc.assert(
      fc.property(withPremiums, ({ request, medicalPremiums }) => {
        expect(priced({ ...request, medicalPremiums }, 'P2')).toEqual(priced(request, 'P2'));
      }),
      { numRuns: 100 },
    );
  });
});
