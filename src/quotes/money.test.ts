import { describe, expect, it } from 'vitest';
import { minorDigits, pricesToMajor, toMinor } from './money.js';

describe('money at the HTTP boundary', () => {
  it('knows the minor unit of a currency', () => {
    expect(minorDigits('AUD')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(toMinor(19.99, 2)).toBe(1999);
  });

  it('converts amounts to major units and leaves ids, ages, percentages and orders alone', () => {
    const minor = [{ planId: 101, totalPrice: 123456, campaignDiscountPercentage: 10, basePrice: { price: 99, taxComponents: [{ taxName: 'GST', taxRatePercentage: 10, taxAmount: 1001 }] }, basicOptionPrices: [{ optionId: 3, price: 5000, displayOrder: 2 }] }];
    expect(pricesToMajor(minor, 2)).toEqual([{ planId: 101, totalPrice: 1234.56, campaignDiscountPercentage: 10, basePrice: { price: 0.99, taxComponents: [{ taxName: 'GST', taxRatePercentage: 10, taxAmount: 10.01 }] }, basicOptionPrices: [{ optionId: 3, price: 50, displayOrder: 2 }] }]);
    expect(pricesToMajor([{ priceDetails: [{ age: 42, ageRangeId: 1, saleListPrice: 250 }] }], 2)).toEqual([{ priceDetails: [{ age: 42, ageRangeId: 1, saleListPrice: 2.5 }] }]);
  });
});
