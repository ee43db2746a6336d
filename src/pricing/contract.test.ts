import { describe, expect, it } from 'vitest';
import { toContractPriceResult, toContractPriceSummary } from './contract.js';
import { priceQuote } from './engine.js';
import { baliRequest } from './fixtures/requests.js';
import { currencyExponent } from './money.js';

describe('conversion to the contract', () => {
  const [p] = priceQuote(baliRequest({ planCodes: ['COMPREHENSIVE'], campaignCode: 'PARTNER10', partnerCode: 'TRAVELCO' }));
  if (p?.outcome !== 'PRICED') throw new Error('fixture quote must price');
  const exponent = currencyExponent(p.currencyCode);

  it('turns money into major-unit doubles and adds planId, leaving ids, ages and rates alone', () => {
    const summary = toContractPriceSummary(p.summary, 4711, exponent);
    expect(summary).toMatchObject({ planId: 4711, totalPrice: 527.45, standardExcess: 200, campaignDiscountPercentage: 10, campaignDiscount: 51.45 });
    expect(summary.basePrice.taxComponents).toEqual([
      { taxName: 'GST', taxRatePercentage: 10, taxAmount: 43.99 },
      { taxName: 'Stamp Duty (NSW)', taxRatePercentage: 9, taxAmount: 43.55 },
    ]);
    expect(summary.basicOptionPrices[0]).toMatchObject({ optionId: 503, price: 29.92, displayOrder: 3 });

    const result = toContractPriceResult(p.result, 4711, exponent);
    expect(result).toMatchObject({ planId: 4711, campaignId: 72, basePriceResult: { planId: 4711, saleListPrice: 425.52, netListPrice: 297.86 } });
    expect(result.basePriceResult.priceDetails[0]).toMatchObject({ age: 40, ageRangeId: 12, saleListPriceId: 1021, saleListPrice: 212.76, saleCampaignDiscount: 21.28 });
    expect(result.optionPriceResults[1]).toMatchObject({ optionId: 530, optionCoverageAmount: 5000, maxSaleListPrice: 98 });
  });

  it('does not change the engine result it converts', () => {
    const before = structuredClone(p.result);
    toContractPriceResult(p.result, 1, exponent);
    expect(p.result).toEqual(before);
  });
});
