import { beforeEach, describe, expect, it } from 'vitest';
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

/** The suite's clock: policies are bought at NOW, then the clock moves on. */
let now = NOW;
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });
/** 11:00 on 15 December in Sydney: cooling-off (to 13 December, 21 days after 22 November) is over; the demo trip left on the 10th. */
const AFTER_COOLING_OFF = new Date('2026-12-15T00:00:00Z');
const FEE = 25;
// Tokens are cached per app and expire: calls after the clock moved go through a second app
// (same database and clock), which signs its partner in at the later time.
const getSecond = useSecondApp(getApp);
const later = (): TestApp => {
  now = AFTER_COOLING_OFF;
  return { ...getApp(), app: getSecond() };
};

beforeEach(() => {
  now = NOW;
});

async function cancellation(
  t: TestApp,
  policyNumber: string,
  body: { reasonCode: string; effectiveDate?: string } = { reasonCode: 'CHANGE_OF_PLANS' },
) {
  const res = await previewCancellation(t, policyNumber, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ChangeAnswer & { coverDays?: number; unusedCoverDays?: number }>();
}

describe(`policy changes: cancellation rules (${DIALECT})`, () => {
  it('after departure and cooling-off: PRO_RATA on the unused days, less the 25.00 fee; confirmed, refunded once', async () => {
    let t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const [bought] = await details(t, policyNumber);
    t = later();
    const preview = await cancellation(t, policyNumber);
    expect(preview.validation, JSON.stringify(preview.validation)).toEqual({ isValid: true, errors: [] });
    expect(preview).toMatchObject({ refundBasis: 'PRO_RATA', coverDays: 14, unusedCoverDays: 9 });
    const refund = preview.refund!;
    // Each part scaled once (exact, half-even): within a cent of paid × 9/14.
    expect(Math.abs(minor(refund.premium) + (minor(bought!.financialSummary.premium) * 9) / 14)).toBeLessThanOrEqual(1);
    expect(refund.fees).toEqual([{ name: 'Cancellation fee', amount: FEE }]);
    expect(partsTotal(refund)).toBe(minor(refund.transactionAmount));
    expect(refund.transactionAmount).toBeLessThan(0);
    expect(minor(preview.refundAmount!)).toBe(-minor(refund.transactionAmount));

    const done = await confirm(t, policyNumber, 'cancellations', preview.id!, { key: 'pro-rata' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<ConfirmAnswer>()).toMatchObject({
      validation: { isValid: true },
      policy: { sequenceNumber: 2, policyStatus: 'Cancelled', policyActionType: 'Cancellation' },
    });
    const money = await moneyOf(t, policyNumber);
    expect(money.refunded).toBe(-minor(refund.transactionAmount));
    const all = await details(t, policyNumber);
    expect(all.map((d) => d.actionType)).toEqual(['Purchase', 'Cancellation']);
    expect(minor(all[1]!.financialSummary.transactionAmount)).toBe(minor(refund.transactionAmount));
    const left = await summary(t, policyNumber);
    expect(minor(left.transactionValueAggregateAmount.amount)).toBe(money.captured - money.refunded);
  });

  it('before departure but after cooling-off: PRO_RATA on every day of cover, less the fee', async () => {
    let t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);
    // Same length of trip a month later (no money moves), so the clock can pass cooling-off before departure.
    const moved = await previewAmendment(t, policyNumber, {
      ...input,
      departureDate: '2027-01-10',
      returnDate: '2027-01-23',
    });
    const movedBody = moved.json<ChangeAnswer>();
    expect(movedBody.validation.isValid, moved.body).toBe(true);
    const applied = await confirm(t, policyNumber, 'amendments', movedBody.id!, {
      key: 'move',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(applied.json<ConfirmAnswer>().validation.isValid, applied.body).toBe(true);
    t = later();
    const preview = await cancellation(t, policyNumber);
    expect(preview).toMatchObject({ refundBasis: 'PRO_RATA', coverDays: 14, unusedCoverDays: 14 });
    const paid = (await details(t, policyNumber)).reduce((sum, d) => sum + minor(d.financialSummary.premium), 0);
    expect(minor(preview.refund!.premium)).toBe(-paid);
    expect(preview.refund!.fees).toEqual([{ name: 'Cancellation fee', amount: FEE }]);
    expect(partsTotal(preview.refund!)).toBe(minor(preview.refund!.transactionAmount));
  });

  it('an annual multi-trip policy after departure: NONE, nothing back, still a Cancellation transaction', async () => {
    let t = getApp();
    const { policyNumber } = await boughtPolicy(t, { plan: 'AMT', input: { quoteType: 'MULTITRIP' } });
    t = later();
    const preview = await cancellation(t, policyNumber);
    expect(preview.validation, JSON.stringify(preview.validation)).toEqual({ isValid: true, errors: [] });
    expect(preview.refundBasis).toBe('NONE');
    expect(preview.refund!.transactionAmount).toBe(0);
    expect(preview.refundAmount).toBe(0);
    const before = await moneyOf(t, policyNumber);
    const done = await confirm(t, policyNumber, 'cancellations', preview.id!, { key: 'none' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<ConfirmAnswer>().policy).toMatchObject({ sequenceNumber: 2, policyStatus: 'Cancelled' });
    const all = await details(t, policyNumber);
    expect(all.map((d) => d.actionType)).toEqual(['Purchase', 'Cancellation']);
    expect(all[1]!.financialSummary.transactionAmount).toBe(0);
    expect(await moneyOf(t, policyNumber)).toEqual(before);
  });

  it('a card that refuses the refund: 200 REFUND_DECLINED, the policy unchanged', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t, { card: CARDS.refundDeclined });
    const preview = await cancellation(t, policyNumber);
    expect(preview.refundBasis).toBe('COOLING_OFF');
    const res = await confirm(t, policyNumber, 'cancellations', preview.id!, { key: 'refused' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<ConfirmAnswer>();
    expect(body.validation.isValid).toBe(false);
    expect(body.validation.errors.map((e) => e.code)).toEqual(['REFUND_DECLINED']);
    expect(body.policy).toMatchObject({ sequenceNumber: 1, policyStatus: 'Active', policyActionType: 'Purchase' });
    expect(await summary(t, policyNumber)).toMatchObject({ sequenceNumber: 1, policyStatus: 'Active' });
    expect((await details(t, policyNumber)).map((d) => d.actionType)).toEqual(['Purchase']);
    expect((await moneyOf(t, policyNumber)).refunded).toBe(0);
  });

  it('effectiveDate before today or after cover end: 200 isValid false on effectiveDate, no id', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    for (const [effectiveDate, code] of [
      ['2026-11-21', 'EFFECTIVE_DATE_IN_PAST'],
      ['2026-12-24', 'EFFECTIVE_DATE_AFTER_COVER_END'],
      ['2026-12-11', 'EFFECTIVE_DATE_AFTER_DEPARTURE'],
    ] as const) {
      const preview = await cancellation(t, policyNumber, { reasonCode: 'CHANGE_OF_PLANS', effectiveDate });
      expect(preview.validation.isValid).toBe(false);
      expect(preview.validation.errors).toEqual([expect.objectContaining({ code, property: 'effectiveDate' })]);
      expect(preview.id).toBeUndefined();
    }
  });

  it('effectiveDate no later than departure, today once the trip has started; the basis follows it', async () => {
    let t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    // On departure day no cover is used: inside cooling-off, everything comes back.
    const onDeparture = await cancellation(t, policyNumber, {
      reasonCode: 'CHANGE_OF_PLANS',
      effectiveDate: '2026-12-10',
    });
    expect(onDeparture).toMatchObject({
      validation: { isValid: true },
      refundBasis: 'COOLING_OFF',
      unusedCoverDays: 14,
      // Issued 22 November in Sydney: cooling-off lasts 21 days after it, to the end of 13 December.
      coolingOffEndsAt: '2026-12-13T12:59:59.000Z',
    });
    t = later();
    const tomorrow = await cancellation(t, policyNumber, {
      reasonCode: 'CHANGE_OF_PLANS',
      effectiveDate: '2026-12-16',
    });
    expect(tomorrow.validation.errors).toEqual([
      expect.objectContaining({
        code: 'EFFECTIVE_DATE_AFTER_DEPARTURE',
        property: 'effectiveDate',
        tokens: { latestEffectiveDate: '2026-12-15' },
      }),
    ]);
    expect(tomorrow.id).toBeUndefined();
  });
});
