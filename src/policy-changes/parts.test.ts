import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partsOf, portion, type Parts } from './parts.js';

/** A refund's parts (negative), a fee maybe (positive), whose total is a refund (< 0). */
const refund = fc
  .record({
    premium: fc.integer({ min: 1, max: 500_000 }),
    discount: fc.integer({ min: 0, max: 50_000 }),
    taxes: fc.array(fc.integer({ min: 0, max: 50_000 }), { maxLength: 3 }),
    donation: fc.integer({ min: 0, max: 1_000 }),
    fee: fc.integer({ min: 0, max: 5_000 }),
  })
  .map((r): Parts =>
    partsOf({
      premium: -r.premium,
      discount: -r.discount,
      taxes: r.taxes.map((amount, i) => ({ name: `T${i}`, amount: -amount })),
      donation: -r.donation,
      fees: r.fee === 0 ? [] : [{ name: 'Cancellation fee', amount: r.fee }],
    }),
  )
  .filter((p) => p.total < 0);

describe('portion', () => {
  it('comes to exactly the share asked, part by part no larger than the whole, the parts summing to it', () => {
    fc.assert(
      fc.property(
        refund.chain((whole) => fc.tuple(fc.constant(whole), fc.integer({ min: whole.total, max: -1 }))),
        ([whole, total]) => {
          const part = portion(whole, total);
          expect(part.total).toBe(total);
          expect(partsOf(part).total).toBe(total);
          expect(Math.abs(part.discount)).toBeLessThanOrEqual(Math.abs(whole.discount));
          part.taxes.forEach((t, i) =>
            expect(Math.abs(t.amount)).toBeLessThanOrEqual(Math.abs(whole.taxes[i]!.amount)),
          );
          expect(part.fees.map((f) => f.name)).toEqual(whole.fees.map((f) => f.name));
        },
      ),
    );
  });

  it('the whole is itself; the share of another sign or a larger one is refused', () => {
    const whole = partsOf({
      premium: -10_000,
      discount: -1_000,
      taxes: [{ name: 'GST', amount: -900 }],
      donation: 0,
      fees: [],
    });
    expect(portion(whole, whole.total)).toEqual(whole);
    expect(portion(whole, -990)).toEqual(
      partsOf({ premium: -1_000, discount: -100, taxes: [{ name: 'GST', amount: -90 }], donation: 0, fees: [] }),
    );
    expect(() => portion(whole, 1)).toThrow(RangeError);
    expect(() => portion(whole, whole.total - 1)).toThrow(RangeError);
  });
});
