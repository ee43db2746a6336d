import Value from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { priceQuote } from './engine.js';
import { baliRequest } from './fixtures/requests.js';
import { fixtureRateTable } from './fixtures/rate-table.js';
import { RateTable } from './rate-tables.js';
import type { PlanPrice, PlanPricing } from './results.js';
import type { PricingRequest } from './request.js';

function priced(outcome: PlanPricing | undefined): PlanPrice {
  if (outcome?.outcome !== 'PRICED') throw new Error(`not priced: ${JSON.stringify(outcome)}`);
  return outcome;
}
const comprehensive = (overrides: Partial<PricingRequest> = {}) =>
  priced(priceQuote(baliRequest({ planCodes: ['COMPREHENSIVE'], ...overrides }))[0]);
const basic = (overrides: Partial<PricingRequest> = {}) =>
  priced(priceQuote(baliRequest({ planCodes: ['BASIC'], ...overrides }))[0]);
const option = (p: PlanPrice, type: string) => p.result.optionPriceResults.find((o) => o.optionTypeCode === type);
const taxes = (p: PlanPrice) => p.summary.basePrice.taxComponents.map((t) => [t.taxName, t.taxAmount]);

describe('the fixture rate table', () => {
  it('is a valid RateTable', () => {
    expect([...Value.Errors(RateTable, fixtureRateTable)]).toEqual([]);
  });
});

describe('priceQuote: the Bali family from Sydney', () => {
  it('prices every plan, in the order asked', () => {
    expect(priceQuote(baliRequest()).map((p) => [p.planCode, p.outcome])).toEqual([
      ['COMPREHENSIVE', 'PRICED'],
      ['BASIC', 'PRICED'],
    ]);
  });

  it('prices the base per traveller: adults at the table price, a free dependent, commission split', () => {
    const p = comprehensive();
    const base = p.result.basePriceResult;
    expect(
      base.priceDetails.map((d) => [
        d.policyHolderGuid,
        d.age,
        d.ageRangeId,
        d.saleListPriceId,
        d.saleListPrice,
        d.saleListCommission,
      ]),
    ).toEqual([
      ['adult-1', 40, 12, 1021, 21276, 6383],
      ['adult-2', 38, 12, 1021, 21276, 6383],
      ['child-1', 8, 11, 1020, 0, 0],
    ]);
    expect(base).toMatchObject({ saleListPrice: 42552, saleListCommission: 12766, netListPrice: 29786 });
  });

  it('adds default options and cancellation at the default limit, then GST and NSW stamp duty on premium + GST', () => {
    const p = comprehensive();
    expect(
      p.result.optionPriceResults.map((o) => [o.optionTypeCode, o.saleListPrice, o.isDefault, o.isOptionExplicit]),
    ).toEqual([
      ['RENTALCAREXCESS', 3500, true, false],
      ['CANCELLATION', 5400, true, false],
    ]);
    expect(option(p, 'CANCELLATION')).toMatchObject({
      optionCoverageAmount: 500000,
      minSaleListPrice: 0,
      maxSaleListPrice: 9800,
      maxNetListPrice: 6860,
    });
    // premium 51452; GST 5145.2 → 5145; stamp duty 9 % of 56597 = 5093.73 → 5094
    expect(taxes(p)).toEqual([
      ['GST', 5145],
      ['Stamp Duty (NSW)', 5094],
    ]);
    expect(p.summary.totalPrice).toBe(61691);
    expect(p.summary.basicOptionPrices).toEqual([
      {
        optionId: 503,
        optionType: 'RENTALCAREXCESS',
        price: 3500,
        campaignDiscount: 0,
        partnerDiscount: 0,
        items: [],
        displayOrder: 3,
      },
    ]);
    expect(p.summary.tripCancellationPrice?.price).toBe(5400);
  });

  it('allocates each tax over base and options by premium', () => {
    const p = comprehensive();
    const gst = [p.result.basePriceResult, ...p.result.optionPriceResults].map((c) => c.taxComponents[0]?.taxAmount);
    expect(gst).toEqual([4255, 350, 540]);
  });

  it('charges a dependent the plan share of an adult of the same band', () => {
    const p = basic();
    // child band: 5400 × 1.35 × 1.6 × 0.6 = 6998.4 → 6998; 50 % → 3499
    expect(p.result.basePriceResult.priceDetails.map((d) => d.saleListPrice)).toEqual([11664, 11664, 3499]);
    expect(p.result.optionPriceResults).toEqual([]);
    expect(p.summary.totalPrice).toBe(26827 + 2683 + 2656);
  });
});

describe('rating inputs', () => {
  it('rates several regions at the highest rank', () => {
    const two = comprehensive({ regionCodes: ['PACIFIC', 'WORLDWIDE', 'ASIA'] });
    const worldwide = comprehensive({ regionCodes: ['WORLDWIDE'] });
    expect(two.summary).toEqual(worldwide.summary);
    expect(two.result.basePriceResult.priceDetails[0]?.saleListPriceId).toBe(1037);
  });

  it('applies the chosen excess multiplier', () => {
    expect(comprehensive({ excess: 0 }).result.basePriceResult.priceDetails[0]?.saleListPrice).toBe(24467); // × 1.15
    expect(comprehensive({ excess: 50000 }).result.basePriceResult.priceDetails[0]?.saleListPrice).toBe(19148); // 19148.4
    expect(comprehensive({ excess: 50000 }).excess).toBe(50000);
  });

  it('prices a 365-day multi-trip on the longest band', () => {
    const p = comprehensive({ quoteType: 'MULTITRIP', tripDurationDays: 365 });
    expect(p.result.basePriceResult.priceDetails[0]?.saleListPrice).toBe(Math.round(9850 * 1.35 * 4.2));
  });
});

describe('options', () => {
  it('opts in and out of basic options by type code, of every basis', () => {
    const p = comprehensive({
      basicOptions: [
        { optionTypeCode: 'cruise', isOptedIn: true },
        { optionTypeCode: 'SNOWSPORTS', isOptedIn: true },
        { optionTypeCode: 'RENTALCAREXCESS', isOptedIn: false },
        { optionTypeCode: 'HOVERCRAFT', isOptedIn: false },
      ],
    });
    expect(p.result.optionPriceResults.map((o) => [o.optionTypeCode, o.saleListPrice, o.isOptionExplicit])).toEqual([
      ['CRUISE', 11702, true], // 27.5 % of 42552 = 11701.8
      ['SNOWSPORTS', 9800, true], // 4900 per adult, dependents free on this plan
      ['CANCELLATION', 5400, false],
    ]);
    expect(option(p, 'SNOWSPORTS')?.priceDetails.map((d) => [d.itemGuid, d.saleListPrice])).toEqual([
      ['adult-1', 4900],
      ['adult-2', 4900],
      ['child-1', 0],
    ]);
    expect(p.summary.basicOptionPrices.map((o) => o.displayOrder)).toEqual([1, 2]);
  });

  it('charges the highest adventure level any activity needs, per traveller', () => {
    const comp = comprehensive({ adventureActivityIds: [1, 5, 2] });
    const adventure = option(comp, 'ADVENTUREACTIVITIES');
    expect(adventure?.priceDetails.map((d) => [d.optionSubTypeCode, d.saleListPrice])).toEqual([
      ['LEVEL2', 3900],
      ['LEVEL2', 3900],
      ['LEVEL2', 0],
    ]);
    expect(comp.summary.adventureActivitiesOptionPrice?.price).toBe(7800);
  });

  it('prices specified items at the percentage of each value', () => {
    const p = comprehensive({
      specifiedItems: [
        { guid: 'item-1', itemValue: 250000, itemTypeCode: 'LAPTOP' },
        { guid: 'item-2', itemValue: 123450, itemTypeCode: 'camera' },
      ],
    });
    const items = option(p, 'SPECIFIEDITEMS');
    expect(items).toMatchObject({
      optionCoverageAmount: 373450,
      maxItemValuePerPolicy: 800000,
      saleListPrice: 16250 + 8024,
    });
    expect(
      items?.priceDetails.map((d) => [d.itemGuid, d.specifiedItemTypeId, d.specifiedItemTypeName, d.saleListPrice]),
    ).toEqual([
      ['item-1', 1, 'Laptop', 16250],
      ['item-2', 2, 'Camera', 8024], // 6.5 % of 123450 = 8024.25
    ]);
    expect(p.summary.specifiedItemOptionPrice?.items.map((i) => i.guid)).toEqual(['item-1', 'item-2']);
  });

  it('prices the chosen cancellation limit, including no cover', () => {
    expect(option(comprehensive({ cancellationCoverLimit: 1000000 }), 'CANCELLATION')).toMatchObject({
      saleListPrice: 9800,
      isOptionExplicit: true,
    });
    expect(option(comprehensive({ cancellationCoverLimit: 0 }), 'CANCELLATION')?.saleListPrice).toBe(0);
  });
});

describe('discounts', () => {
  it('applies a campaign to base and options, shared between net and commission', () => {
    const p = comprehensive({ campaignCode: ' summer15 ' });
    expect(p.campaignStatus).toBe('APPLIED');
    expect(p.result).toMatchObject({ campaignId: 71, campaignDiscountPercentage: 15 });
    // 15 % of 42552 = 6382.8 → 6383; of net 29786 = 4467.9 → 4468
    expect(p.result.basePriceResult).toMatchObject({ saleCampaignDiscount: 6383, netCampaignDiscount: 4468 });
    expect(option(p, 'CANCELLATION')?.saleCampaignDiscount).toBe(810);
    expect(p.summary.campaignDiscount).toBe(6383 + 525 + 810);
    expect(p.summary.totalPrice).toBeLessThan(comprehensive().summary.totalPrice);
  });

  it('says why a campaign does not apply', () => {
    expect(comprehensive({ campaignCode: 'NOPE' }).campaignStatus).toBe('UNKNOWN_CODE');
    expect(comprehensive({ campaignCode: 'SUMMER15', quoteDate: '2027-03-01' }).campaignStatus).toBe('NOT_IN_PERIOD');
    expect(comprehensive({ campaignCode: 'PARTNER10', partnerCode: 'OTHER' }).campaignStatus).toBe('NOT_FOR_PARTNER');
    const basicPlan = basic({ campaignCode: 'PARTNER10', partnerCode: 'TRAVELCO' });
    expect(basicPlan.campaignStatus).toBe('NOT_FOR_PLAN');
    expect(basicPlan.result.campaignId).toBeUndefined();
    expect(basicPlan.summary.campaignDiscount).toBe(0);
  });

  it('applies the partner discount after the campaign, from commission', () => {
    const p = comprehensive({ campaignCode: 'PARTNER10', partnerCode: 'TRAVELCO' });
    // campaign 4255.2 → 4255 (net share 2978.6 → 2979); partner 5 % of 38297 = 1914.85 → 1915
    expect(p.result.basePriceResult).toMatchObject({
      saleCampaignDiscount: 4255,
      netCampaignDiscount: 2979,
      salePartnerDiscount: 1915,
    });
    expect(p.summary.basePrice).toMatchObject({
      price: 42552 - 4255 - 1915,
      campaignDiscount: 4255,
      partnerDiscount: 1915,
    });
  });

  it('gives the worked example of docs/pricing.md', () => {
    const p = comprehensive({ campaignCode: 'PARTNER10', partnerCode: 'TRAVELCO' });
    expect(p.result.basePriceResult.priceDetails.map((d) => d.saleCampaignDiscount)).toEqual([2128, 2127, 0]);
    expect(option(p, 'RENTALCAREXCESS')?.salePartnerDiscount).toBe(158); // 157.5, half to even
    expect(taxes(p)).toEqual([
      ['GST', 4399],
      ['Stamp Duty (NSW)', 4355],
    ]);
    expect(
      [p.result.basePriceResult, ...p.result.optionPriceResults].map((c) => c.taxComponents[0]?.taxAmount),
    ).toEqual([3638, 299, 462]);
    expect(p.summary).toMatchObject({ totalPrice: 52745, campaignDiscount: 5145, partnerDiscount: 2316 });
  });

  it('never lets a partner discount exceed the commission left', () => {
    const table = { ...fixtureRateTable, partnerDiscounts: [{ partnerCode: 'TRAVELCO', discountPercentage: 60 }] };
    const p = comprehensive({ rateTable: table, partnerCode: 'TRAVELCO' });
    expect(p.result.basePriceResult.salePartnerDiscount).toBe(p.result.basePriceResult.saleListCommission);
  });
});

describe('taxes by home country and province', () => {
  it('uses VIC stamp duty for Victorians, GST alone elsewhere in Australia, NZ GST, none abroad', () => {
    expect(taxes(comprehensive({ homeProvinceCode: 'vic' }))).toEqual([
      ['GST', 5145],
      ['Stamp Duty (VIC)', 5660], // 10 % of 56597 = 5659.7
    ]);
    expect(taxes(comprehensive({ homeProvinceCode: 'QLD' }))).toEqual([['GST', 5145]]);
    expect(taxes(comprehensive({ homeCountryCode: 'NZL', homeProvinceCode: undefined }))).toEqual([['GST', 7718]]); // 7717.8
    expect(taxes(comprehensive({ homeCountryCode: 'USA' }))).toEqual([]);
  });
});

describe('plans that cannot be priced', () => {
  const reason = (overrides: Partial<PricingRequest>, plan = 'COMPREHENSIVE') => {
    const [p] = priceQuote(baliRequest({ planCodes: [plan], ...overrides }));
    return p?.outcome === 'NOT_PRICEABLE' ? [p.reason, p.detail] : p?.outcome;
  };

  it('come back with a reason, never an exception', () => {
    expect(reason({}, 'PLATINUM')).toEqual(['PLAN_NOT_IN_RATE_TABLE', 'PLATINUM']);
    expect(reason({ travellers: [] })).toEqual(['NO_TRAVELLERS', 'travellers']);
    expect(reason({ regionCodes: ['MARS'] })).toEqual(['UNKNOWN_REGION', 'MARS']);
    expect(reason({ regionCodes: [] })).toEqual(['UNKNOWN_REGION', 'regionCodes']);
    expect(reason({ tripDurationDays: 400 })).toEqual(['DURATION_OUT_OF_BANDS', '400']);
    expect(reason({ tripDurationDays: 1.5 })).toEqual(['INVALID_REQUEST', 'tripDurationDays']);
    expect(reason({ travellers: [{ guid: 'old', age: 91, isDependent: false }] })).toEqual(['AGE_OUT_OF_BANDS', 'old']);
    expect(reason({ regionCodes: ['WORLDWIDE'] }, 'BASIC')).toEqual(['NO_BASE_PRICE', 'adult-1']);
    expect(reason({ excess: 12345 })).toEqual(['EXCESS_NOT_OFFERED', '12345']);
    expect(reason({ excess: -1 })).toEqual(['INVALID_REQUEST', 'excess']);
    expect(reason({ basicOptions: [{ optionTypeCode: 'CRUISE', isOptedIn: true }] }, 'BASIC')).toEqual([
      'OPTION_NOT_OFFERED',
      'CRUISE',
    ]);
    expect(reason({ adventureActivityIds: [1] }, 'BASIC')).toEqual(['ADVENTURE_NOT_OFFERED', 'ADVENTUREACTIVITIES']);
    expect(reason({ adventureActivityIds: [1, 99] })).toEqual(['ACTIVITY_NOT_COVERED', '99']);
    const item = { guid: 'i', itemValue: 100000, itemTypeCode: 'LAPTOP' };
    expect(reason({ specifiedItems: [item] }, 'BASIC')).toEqual(['SPECIFIED_ITEMS_NOT_OFFERED', 'SPECIFIEDITEMS']);
    expect(reason({ specifiedItems: [{ ...item, itemTypeCode: 'YACHT' }] })).toEqual(['ITEM_TYPE_UNKNOWN', 'i']);
    expect(reason({ specifiedItems: [{ ...item, itemValue: 100 }] })).toEqual(['ITEM_VALUE_OUT_OF_RANGE', 'i']);
    expect(reason({ specifiedItems: [{ ...item, itemValue: 1.5 }] })).toEqual(['INVALID_REQUEST', 'i']);
    const big = { ...item, itemValue: 400000 };
    expect(reason({ specifiedItems: [big, { ...big, guid: 'j' }, { ...big, guid: 'k' }] })).toEqual([
      'ITEMS_OVER_POLICY_LIMIT',
      'SPECIFIEDITEMS',
    ]);
    expect(reason({ cancellationCoverLimit: 100000 }, 'BASIC')).toEqual(['CANCELLATION_NOT_OFFERED', 'CANCELLATION']);
    expect(reason({ cancellationCoverLimit: 123 })).toEqual(['CANCELLATION_LIMIT_NOT_OFFERED', '123']);
  });

  it('do not stop the other plans being priced', () => {
    const outcomes = priceQuote(baliRequest({ regionCodes: ['WORLDWIDE'] }));
    expect(outcomes.map((p) => p.outcome)).toEqual(['PRICED', 'NOT_PRICEABLE']);
  });
});
