import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ServicingRules } from '../catalogue/model.js';
import { isoDate, parseDate, plusDays } from '../kernel/calendar/dates.js';
import { partsOf, type Parts } from './parts.js';
import { cancellationTerms, type CancellationFacts } from './rules.js';

const RULES: ServicingRules = {
  coolingOffDays: 21,
  cancellation: { beforeDeparture: 'PRO_RATA', afterDeparture: 'PRO_RATA', feeMinor: 2500 },
  amendment: {
    feeMinor: 0,
    beforeDeparture: { dates: true, destinations: true, travellers: true, options: true },
    afterDeparture: { extendReturnDate: true },
  },
};
const PAID = partsOf({
  premium: 30_000,
  discount: 3_000,
  taxes: [{ name: 'GST', amount: 2_700 }],
  donation: 500,
  fees: [{ name: 'Card fee', amount: 150 }],
});
// Issued 2026-03-02 00:30 in Sydney (AEDT, +11): the issue date is the local one.
const FACTS: CancellationFacts = {
  issuedAt: '2026-03-01T13:30:00.000Z',
  zone: 'Australia/Sydney',
  today: '2026-03-22',
  effectiveDate: '2026-03-22',
  departureDate: '2026-04-10',
  coverEndDate: '2026-04-19',
  paid: PAID,
};

describe('cancellationTerms', () => {
  it('refunds everything, fees included, until the end of the last cooling-off day before departure', () => {
    // 21 days after the issue day (2 March): the last cooling-off day is 23 March.
    const terms = cancellationTerms(RULES, { ...FACTS, today: '2026-03-23', effectiveDate: '2026-03-23' });
    expect(terms).toMatchObject({
      basis: 'COOLING_OFF',
      coolingOffEndsAt: '2026-03-23T12:59:59.000Z',
      coverDays: 10,
      unusedDays: 10,
    });
    expect(terms.refund).toEqual(
      partsOf({
        premium: -30_000,
        discount: -3_000,
        taxes: [{ name: 'GST', amount: -2_700 }],
        donation: -500,
        fees: [{ name: 'Card fee', amount: -150 }],
      }),
    );
  });

  it('after cooling-off refunds the unused days pro rata, keeps paid fees and takes the cancellation fee', () => {
    const terms = cancellationTerms(RULES, { ...FACTS, today: '2026-03-24', effectiveDate: '2026-03-24' });
    expect(terms.basis).toBe('PRO_RATA');
    expect(terms.refund).toEqual(
      partsOf({
        premium: -30_000,
        discount: -3_000,
        taxes: [{ name: 'GST', amount: -2_700 }],
        donation: -500,
        fees: [{ name: 'Cancellation fee', amount: 2500 }],
      }),
    );
    expect(terms.refund.total).toBe(-27_700);
  });

  it('after departure counts the unused days from the effective date, each part rounded half to even', () => {
    const paid = partsOf({ premium: 1_005, discount: 15, taxes: [{ name: 'GST', amount: 25 }], donation: 0, fees: [] });
    const terms = cancellationTerms(
      { ...RULES, cancellation: { ...RULES.cancellation, feeMinor: 100 } },
      { ...FACTS, today: '2026-04-14', effectiveDate: '2026-04-15', paid },
    );
    // 5 of 10 days: 502.5 → 502, 7.5 → 8, 12.5 → 12.
    expect(terms).toMatchObject({ basis: 'PRO_RATA', coverDays: 10, unusedDays: 5 });
    expect(terms.refund).toEqual(
      partsOf({
        premium: -502,
        discount: -8,
        taxes: [{ name: 'GST', amount: -12 }],
        donation: 0,
        fees: [{ name: 'Cancellation fee', amount: 100 }],
      }),
    );
  });

  it('refunds nothing where the rule says NONE', () => {
    const rules: ServicingRules = { ...RULES, cancellation: { ...RULES.cancellation, afterDeparture: 'NONE' } };
    const terms = cancellationTerms(rules, { ...FACTS, today: '2026-04-10', effectiveDate: '2026-04-12' });
    expect(terms).toMatchObject({ basis: 'NONE', unusedDays: 8 });
    expect(terms.refund.total).toBe(0);
    expect(terms.refund.fees).toEqual([]);
  });

  it('has no cooling-off when the rule is 0 days: it ends at the issue instant', () => {
    const terms = cancellationTerms(
      { ...RULES, coolingOffDays: 0 },
      { ...FACTS, today: '2026-03-02', effectiveDate: '2026-03-02' },
    );
    expect(terms).toMatchObject({ basis: 'PRO_RATA', coolingOffEndsAt: '2026-03-01T13:30:00.000Z' });
  });

  it('gives no cooling-off refund once the trip has started, even within the days', () => {
    const terms = cancellationTerms(RULES, {
      ...FACTS,
      departureDate: '2026-03-10',
      today: '2026-03-12',
      effectiveDate: '2026-03-12',
    });
    expect(terms.basis).toBe('PRO_RATA');
  });

  it('judges the basis on effectiveDate: no cover used (effective on departure day) keeps the before-departure rules', () => {
    const rules: ServicingRules = { ...RULES, cancellation: { ...RULES.cancellation, afterDeparture: 'NONE' } };
    const onDeparture = {
      ...FACTS,
      departureDate: '2026-03-10',
      coverEndDate: '2026-03-19',
      today: '2026-03-10',
      effectiveDate: '2026-03-10',
    };
    expect(cancellationTerms(rules, onDeparture)).toMatchObject({ basis: 'COOLING_OFF', unusedDays: 10 });
    const coolingOver = { ...FACTS, today: '2026-04-10', effectiveDate: '2026-04-10' };
    expect(cancellationTerms(rules, coolingOver)).toMatchObject({ basis: 'PRO_RATA', unusedDays: 10 });
    // Cover used (effective after departure): the after-departure rule, even inside the cooling-off days.
    const used = { ...onDeparture, effectiveDate: '2026-03-11' };
    expect(cancellationTerms(rules, used)).toMatchObject({ basis: 'NONE', unusedDays: 9 });
  });

  it('caps the fee at the refund and refunds nothing after the cover ended', () => {
    const small = partsOf({ premium: 1_000, discount: 0, taxes: [], donation: 0, fees: [] });
    const capped = cancellationTerms(RULES, {
      ...FACTS,
      today: '2026-03-30',
      effectiveDate: '2026-03-30',
      paid: small,
    });
    expect(capped.refund).toEqual(
      partsOf({
        premium: -1_000,
        discount: 0,
        taxes: [],
        donation: 0,
        fees: [{ name: 'Cancellation fee', amount: 1_000 }],
      }),
    );
    expect(capped.refund.total).toBe(0);
    const over = cancellationTerms(RULES, { ...FACTS, today: '2026-04-20', effectiveDate: '2026-04-20' });
    expect(over).toMatchObject({ unusedDays: 0, refund: { total: 0, fees: [] } });
  });
});

const amount = fc.integer({ min: 0, max: 5_000_000 });
const paidArbitrary: fc.Arbitrary<Parts> = fc
  .record({
    premium: amount,
    discountShare: fc.double({ min: 0, max: 1, noNaN: true }),
    taxes: fc.uniqueArray(fc.record({ name: fc.constantFrom('GST', 'Stamp duty', 'Levy'), amount }), {
      selector: (t) => t.name,
      maxLength: 3,
    }),
    donation: fc.integer({ min: 0, max: 10_000 }),
    fees: fc.array(fc.record({ name: fc.constant('Card fee'), amount: fc.integer({ min: 0, max: 1_000 }) }), {
      maxLength: 1,
    }),
  })
  .map(({ discountShare, ...p }) => partsOf({ ...p, discount: Math.floor(p.premium * discountShare) }));
const basis = fc.constantFrom('PRO_RATA' as const, 'NONE' as const);
const rulesArbitrary = fc.record({
  coolingOff: fc.integer({ min: 0, max: 60 }),
  before: basis,
  after: basis,
  fee: fc.integer({ min: 0, max: 100_000 }),
});
const START = parseDate('2026-01-01');
const day = (offset: number) => {
  if (!START) throw new Error('bad start date');
  return isoDate(plusDays(START, offset));
};

describe('cancellationTerms properties', () => {
  it('parts sum to the total, no part exceeds what was paid, the total is never a charge', () => {
    fc.assert(
      fc.property(
        paidArbitrary,
        rulesArbitrary,
        fc.record({
          issue: fc.integer({ min: 0, max: 60 }),
          toDeparture: fc.integer({ min: 0, max: 120 }),
          cover: fc.integer({ min: 1, max: 400 }),
          today: fc.integer({ min: 0, max: 600 }),
          later: fc.integer({ min: 0, max: 30 }),
        }),
        (paid, r, d) => {
          const rules: ServicingRules = {
            ...RULES,
            coolingOffDays: r.coolingOff,
            cancellation: { beforeDeparture: r.before, afterDeparture: r.after, feeMinor: r.fee },
          };
          const departure = d.issue + d.toDeparture;
          const today = d.issue + d.today;
          const facts: CancellationFacts = {
            issuedAt: `${day(d.issue)}T02:00:00.000Z`,
            zone: 'Australia/Sydney',
            today: day(today),
            effectiveDate: day(today + d.later),
            departureDate: day(departure),
            coverEndDate: day(departure + d.cover - 1),
            paid,
          };
          const { refund, basis: outcome, unusedDays, coverDays } = cancellationTerms(rules, facts);
          expect(partsOf(refund)).toEqual(refund);
          expect(refund.total).toBeLessThanOrEqual(0);
          expect(unusedDays).toBeGreaterThanOrEqual(0);
          expect(unusedDays).toBeLessThanOrEqual(coverDays);
          expect(Math.abs(refund.premium)).toBeLessThanOrEqual(paid.premium);
          expect(Math.abs(refund.discount)).toBeLessThanOrEqual(paid.discount);
          expect(Math.abs(refund.donation)).toBeLessThanOrEqual(paid.donation);
          for (const tax of refund.taxes)
            expect(Math.abs(tax.amount)).toBeLessThanOrEqual(paid.taxes.find((t) => t.name === tax.name)?.amount ?? 0);
          if (outcome !== 'COOLING_OFF')
            for (const fee of refund.fees)
              expect(fee).toEqual({ name: 'Cancellation fee', amount: expect.any(Number) as number });
          for (const fee of refund.fees) expect(fee.amount).toBeLessThanOrEqual(outcome === 'COOLING_OFF' ? 0 : r.fee);
        },
      ),
      { numRuns: 300 },
    );
  });
});
