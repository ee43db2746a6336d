import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useSecondApp, useTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import {
  boughtPolicy,
  CARDS,
  confirm,
  details,
  minor,
  moneyOf,
  NOW,
  partsTotal,
  previewAmendment,
  previewCancellation,
  summary,
  type ChangeAnswer,
  type ConfirmAnswer,
} from './support.js';
import { scaled } from '../helpers/time-scale.js';

let now = NOW;
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });
/** 15 December: the trip is under way, cooling-off is over (a PRO_RATA cancellation with its fee). */
const LATER = new Date('2026-12-15T00:00:00Z');
// Access tokens expire: calls at the later time go through a second app that signs in then.
const getSecond = useSecondApp(getApp);

/** An amendment of the demo trip: a new return date (6–60 days of travel: cover lasts past LATER), destinations and basic options. */
const amendment = fc.record({
  days: fc.integer({ min: 6, max: 60 }),
  destinations: fc.uniqueArray(fc.constantFrom('IDN', 'NZL', 'FRA', 'USA', 'JPN'), { minLength: 1, maxLength: 3 }),
  options: fc.subarray(['CRUISE', 'SNOWSPORTS', 'RENTALCAREXCESS']),
});
const life = fc.record({
  amendments: fc.array(amendment, { minLength: 1, maxLength: 4 }),
  cancel: fc.constantFrom('no', 'in cooling-off', 'after departure'),
});

/** The day `days` after the demo trip's departure (10 December 2026). */
const returnDateAfter = (days: number) => new Date(Date.UTC(2026, 11, 10 + days - 1)).toISOString().slice(0, 10);

let keys = 0;

describe(`policy changes: the money of a policy's life (${DIALECT})`, () => {
  it(
    'captured − refunded equals the sum of the transactions; no payment refunds more than it captured; parts sum to totals',
    async () => {
      const t = getApp();
      await fc.assert(
        fc.asyncProperty(life, async (run) => {
          now = NOW;
          const { amendments } = run;
          const cancel = run.cancel !== 'no';
          const { policyNumber, input } = await boughtPolicy(t);
          let at: TestApp = t;
          for (const step of amendments) {
            const next = {
              ...input,
              returnDate: returnDateAfter(step.days),
              destinationCountryCodes: step.destinations,
              basicOptions: step.options.map((optionType) => ({ optionType, isOptedIn: true })),
            };
            const res = await previewAmendment(t, policyNumber, next);
            expect(res.statusCode, res.body).toBe(200);
            const preview = res.json<ChangeAnswer>();
            expect(preview.validation.isValid, res.body).toBe(true);
            expect(partsTotal(preview.difference!)).toBe(minor(preview.difference!.transactionAmount));
            const body = preview.difference!.transactionAmount > 0 ? { cardToken: { token: CARDS.approved } } : {};
            const done = await confirm(t, policyNumber, 'amendments', preview.id!, { key: `money-${++keys}`, body });
            expect(done.statusCode, done.body).toBe(200);
            expect(done.json<ConfirmAnswer>().validation.isValid, done.body).toBe(true);
          }
          if (cancel) {
            const late = run.cancel === 'after departure';
            if (late) now = LATER;
            if (late) at = { ...t, app: getSecond() };
            const res = await previewCancellation(at, policyNumber, { reasonCode: 'CHANGE_OF_PLANS' });
            const preview = res.json<ChangeAnswer>();
            expect(preview.refundBasis, res.body).toBe(late ? 'PRO_RATA' : 'COOLING_OFF');
            expect(partsTotal(preview.refund!)).toBe(minor(preview.refund!.transactionAmount));
            const done = await confirm(at, policyNumber, 'cancellations', preview.id!, { key: `money-${++keys}` });
            expect(done.statusCode, done.body).toBe(200);
            expect(done.json<ConfirmAnswer>().policy.policyStatus).toBe('Cancelled');
          }

          const transactions = await details(at, policyNumber);
          expect(transactions).toHaveLength(1 + amendments.length + (cancel ? 1 : 0));
          for (const d of transactions)
            expect(partsTotal(d.financialSummary), JSON.stringify(d.financialSummary)).toBe(
              minor(d.financialSummary.transactionAmount),
            );
          const books = await moneyOf(t, policyNumber);
          const booked = transactions.reduce((sum, d) => sum + minor(d.financialSummary.transactionAmount), 0);
          expect(books.captured - books.refunded).toBe(booked);
          for (const payment of books.payments) expect(payment.refunded).toBeLessThanOrEqual(payment.captured);
          const latest = await summary(at, policyNumber);
          expect(minor(latest.transactionValueAggregateAmount.amount)).toBe(booked);
          // A cancellation inside cooling-off gives back everything that was paid; a later one keeps some.
          if (run.cancel === 'in cooling-off') expect(booked).toBe(0);
          if (run.cancel === 'after departure') expect(booked).toBeGreaterThan(0);
        }),
        { numRuns: 15 },
      );
    },
    scaled(90_000),
  );
});
