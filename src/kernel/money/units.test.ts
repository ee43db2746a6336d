import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { minorDigits, pricesToMajor, toMajor, toMinor } from './units.js';

describe('money at the HTTP boundary', () => {
  it('knows the minor unit of a currency', () => {
    expect(minorDigits('AUD')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(toMinor(19.99, 2)).toBe(1999);
  });

  it('converts amounts to major units and leaves ids, ages, percentages and orders alone', () => {
    const minor = [
      {
        planId: 101,
        totalPrice: 123456,
        campaignDiscountPercentage: 10,
        basePrice: { price: 99, taxComponents: [{ taxName: 'GST', taxRatePercentage: 10, taxAmount: 1001 }] },
        basicOptionPrices: [{ optionId: 3, price: 5000, displayOrder: 2 }],
      },
    ];
    expect(pricesToMajor(minor, 2)).toEqual([
      {
        planId: 101,
        totalPrice: 1234.56,
        campaignDiscountPercentage: 10,
        basePrice: { price: 0.99, taxComponents: [{ taxName: 'GST', taxRatePercentage: 10, taxAmount: 10.01 }] },
        basicOptionPrices: [{ optionId: 3, price: 50, displayOrder: 2 }],
      },
    ]);
    expect(pricesToMajor([{ priceDetails: [{ age: 42, ageRangeId: 1, saleListPrice: 250 }] }], 2)).toEqual([
      { priceDetails: [{ age: 42, ageRangeId: 1, saleListPrice: 2.5 }] },
    ]);
  });
});

describe('toMajor and pricesToMajor (same numbers as the decimal-text conversion they replaced)', () => {
  const viaText = (minor: number, digits: number) => Number((minor / 10 ** digits).toFixed(digits));

  it('gives the same double as the text round trip for whole minor units', () => {
    const minor = fc.oneof(
      fc.integer({ min: -1e6, max: 1e6 }),
      fc.integer({ min: -1e12, max: 1e12 }),
      fc.constantFrom(0, -0, 1, 5, 995, 1005, 1e12, -1e12, 1e12 + 1, 2 ** 53 - 1, 1.5, 12.345),
    );
    fc.assert(
      fc.property(minor, fc.integer({ min: 0, max: 4 }), (m, digits) => {
        expect(Object.is(toMajor(m, digits), viaText(m, digits))).toBe(true);
      }),
      { numRuns: 50_000 },
    );
    for (let m = -200_000; m <= 200_000; m += 1) {
      if (toMajor(m, 2) !== viaText(m, 2) || toMajor(m, 3) !== viaText(m, 3)) throw new Error(`differs at ${m}`);
    }
  });

  it('equals the Object.entries conversion on generated price-like structures', () => {
    const reference = (node: unknown, digits: number): unknown => {
      if (Array.isArray(node)) return node.map((n) => reference(n, digits));
      if (node === null || typeof node !== 'object') return node;
      const moneyKeys = new Set(['price', 'saleListPrice', 'taxAmount', 'totalPrice']);
      return Object.fromEntries(
        Object.entries(node).map(([k, c]) => [
          k,
          typeof c === 'number' && moneyKeys.has(k) ? viaText(c, digits) : reference(c, digits),
        ]),
      );
    };
    const key = fc.constantFrom(
      'price',
      'saleListPrice',
      'taxAmount',
      'totalPrice',
      'planId',
      'age',
      'taxRatePercentage',
      '__proto__',
      'guid',
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.double(),
        fc.string(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, fc.integer({ min: 0, max: 3 }), (value, digits) => {
        expect(isDeepStrictEqual(pricesToMajor(value, digits), reference(value, digits))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
