import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, applyFactor, applyPercentage, roundToMinor } from './arithmetic.js';

describe('applyPercentage', () => {
  it('rounds half to even, once, on the exact decimal product', () => {
    expect(applyPercentage(125, 10)).toBe(12); // 12.5 → 12
    expect(applyPercentage(135, 10)).toBe(14); // 13.5 → 14
    expect(applyPercentage(12345, 12.5)).toBe(1543); // 1543.125
    // 0.1 + 0.2 style float error must not leak: 1005 × 1.5 % = 15.075 exactly → 15
    expect(applyPercentage(1005, 1.5)).toBe(15);
    expect(applyPercentage(42552, 30)).toBe(12766);
  });

  it('is zero for a zero amount or rate', () => {
    expect(applyPercentage(0, 33.3)).toBe(0);
    expect(applyPercentage(999, 0)).toBe(0);
  });
});

describe('applyFactor and roundToMinor', () => {
  it('rounds half to even', () => {
    expect(applyFactor(21276, 1.15)).toBe(24467); // 24467.4
    expect(applyFactor(5, 0.5)).toBe(2); // 2.5 → 2
    expect(applyFactor(7, 0.5)).toBe(4); // 3.5 → 4
    expect(roundToMinor(2750.5)).toBe(2750);
    expect(roundToMinor(2751.5)).toBe(2752);
    expect(roundToMinor(3500)).toBe(3500);
  });
});

describe('allocate', () => {
  it('splits by largest remainder and always sums to the total', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(10, [3, 3, 4])).toEqual([3, 3, 4]);
    expect(allocate(5, [1, 2])).toEqual([2, 3]); // 1.67, 3.33: the larger remainder (0.67) takes the unit
    expect(allocate(7, [0, 5, 0, 5])).toEqual([0, 4, 0, 3]);
  });

  it('handles no parts and zero weights', () => {
    expect(allocate(0, [])).toEqual([]);
    expect(allocate(0, [0, 0])).toEqual([0, 0]);
  });

  it('stays exact beyond 2^53 intermediate products', () => {
    const parts = allocate(9_999_999_999, [9_999_999_999, 1, 3_333_333_333]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(9_999_999_999);
  });
});

describe('money properties', () => {
  // The reference: exact decimals (big.js) and BigInt largest remainder, without fast paths.
  const reference = (amount: number, pct: number) =>
    new Big(amount).times(pct).div(100).round(0, Big.roundHalfEven).toNumber();
  const referenceAllocate = (total: number, weights: number[]) => {
    const W = weights.reduce((a, w) => a + BigInt(w), 0n);
    const exact = weights.map((w) => BigInt(total) * BigInt(w));
    const parts = exact.map((e) => e / W);
    let left = BigInt(total) - parts.reduce((a, b) => a + b, 0n);
    const order = exact.map((e, i) => ({ i, r: e % W })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
    for (const { i } of order) if (left > 0n) [parts[i], left] = [parts[i]! + 1n, left - 1n];
    return parts.map(Number);
  };
  const amount = fc.oneof(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 0, max: 1000 }));
  const rate = fc.oneof(
    fc.integer({ min: 0, max: 10000 }).map((n) => n / 100),
    fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 10000),
  );

  it('applyPercentage and applyFactor equal exact decimal arithmetic rounded half to even', () => {
    fc.assert(
      fc.property(amount, rate, (a, p) => {
        expect(applyPercentage(a, p)).toBe(reference(a, p));
        expect(applyFactor(a, p / 20)).toBe(
          new Big(a)
            .times(p / 20)
            .round(0, Big.roundHalfEven)
            .toNumber(),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('allocate equals the exact largest-remainder split and sums to the total', () => {
    const weights = fc
      .array(fc.oneof(amount, fc.constant(0)), { minLength: 1, maxLength: 6 })
      .filter((w) => w.some((x) => x > 0));
    fc.assert(
      fc.property(amount, weights, (total, w) => {
        const parts = allocate(total, w);
        expect(parts).toEqual(referenceAllocate(total, w));
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
      }),
      { numRuns: 2000 },
    );
  });
});
