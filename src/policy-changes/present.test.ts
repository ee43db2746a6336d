import Value from 'typebox/value';
import { describe, expect, it } from 'vitest';
import type { PolicySummary } from '../policies/schemas.js';
import type { AmendmentPricing, CancellationPricing, PolicyChange } from './model.js';
import { partsOf, type Parts } from './parts.js';
import { amendmentView, amountsView, cancellationView, changeStatus, confirmationView } from './present.js';
import { Amendment, Cancellation, PolicyChangeConfirmation } from './schemas.js';

const NOW = '2026-11-22T00:10:00.000Z';
const parts = (premium: number, gst: number, fees: Parts['fees'] = []): Parts =>
  partsOf({ premium, discount: 0, taxes: [{ name: 'GST', amount: gst }], donation: 0, fees });

const PAID = parts(10000, 1000);
const AMENDMENT: AmendmentPricing = {
  kind: 'AMENDMENT',
  input: { quoteType: 'SINGLETRIP', departureDate: '2026-12-01', returnDate: '2026-12-20' },
  priceResults: [{ planId: 101, standardExcess: 25000 }],
  prices: [{ planId: 101, totalPrice: 13200 }],
  paid: PAID,
  repriced: parts(12000, 1200),
  difference: parts(2000, 200, [{ name: 'Amendment fee', amount: 1000 }]),
};
const CANCELLATION: CancellationPricing = {
  kind: 'CANCELLATION',
  reasonCode: 'TRIP_CANCELLED',
  effectiveDate: '2026-11-22',
  basis: 'PRO_RATA',
  coolingOffEndsAt: '2026-11-10T12:59:59.999Z',
  coverDays: 20,
  unusedDays: 10,
  paid: PAID,
  refund: parts(-5000, -500, [{ name: 'Cancellation fee', amount: 2500 }]),
};

function changeOf(overrides: Partial<PolicyChange> = {}): PolicyChange {
  return {
    id: 'chg_1',
    kind: 'AMENDMENT',
    policyHeaderId: 7,
    policyNumber: 'TIAU260000042',
    paymentMethod: 'CARD',
    brandCode: 'brandau',
    partnerId: 1,
    userId: 2,
    baseSequenceNumber: 1,
    state: 'PREVIEW',
    attempt: 0,
    expiresAt: '2026-11-22T00:30:00.000Z',
    amountMinor: 3200,
    currency: 'AUD',
    pricing: AMENDMENT,
    transaction: { version: {} as PolicyChange['transaction']['version'], amounts: AMENDMENT.difference, planId: 101 },
    createdAt: '2026-11-22T00:00:00.000Z',
    updatedAt: '2026-11-22T00:00:00.000Z',
    ...overrides,
  };
}

/** No member is `undefined` (toStrictEqual tells an undefined member from an absent one). */
const expectNoUndefined = (value: unknown) => expect(JSON.parse(JSON.stringify(value))).toStrictEqual(value);

describe('changeStatus', () => {
  it.each([
    ['PREVIEW', 'PREVIEW'],
    ['STALE', 'STALE'],
    ['STARTED', 'IN_PROGRESS'],
    ['REFUNDING', 'IN_PROGRESS'],
    ['ATTENTION', 'IN_PROGRESS'],
    ['CHALLENGE_PENDING', 'CHALLENGE_REQUIRED'],
    ['APPLIED', 'APPLIED'],
    ['SETTLED', 'APPLIED'],
    ['VOIDED', 'FAILED'],
    ['REFUND_DECLINED', 'FAILED'],
    ['RESOLVED', 'FAILED'],
  ] as const)('%s → %s', (state, status) => {
    expect(changeStatus(changeOf({ state }), NOW)).toBe(status);
  });

  it('ATTENTION or RESOLVED with its transaction written (a refund booked in part, a capture refused) is APPLIED', () => {
    expect(changeStatus(changeOf({ state: 'ATTENTION', sequenceNumber: 2 }), NOW)).toBe('APPLIED');
    expect(changeStatus(changeOf({ state: 'RESOLVED', sequenceNumber: 2 }), NOW)).toBe('APPLIED');
  });

  it('a preview past expiresAt is EXPIRED; at expiresAt it still holds; other states never expire', () => {
    expect(changeStatus(changeOf(), '2026-11-22T00:30:00.001Z')).toBe('EXPIRED');
    expect(changeStatus(changeOf(), '2026-11-22T00:30:00.000Z')).toBe('PREVIEW');
    expect(changeStatus(changeOf({ state: 'SETTLED' }), '2027-01-01T00:00:00.000Z')).toBe('APPLIED');
  });
});

describe('amountsView', () => {
  it('converts every part with the currency digits, signed, and renames donation and total', () => {
    const p = partsOf({
      premium: -5000,
      discount: -100,
      taxes: [{ name: 'GST', amount: -490 }],
      donation: 0,
      fees: [{ name: 'Cancellation fee', amount: 2500 }],
    });
    expect(amountsView(p, 2)).toStrictEqual({
      premium: -50,
      discount: -1,
      taxes: [{ name: 'GST', amount: -4.9 }],
      footprintsDonation: 0,
      fees: [{ name: 'Cancellation fee', amount: 25 }],
      transactionAmount: -28.9,
    });
    expect(amountsView(parts(1234, 0), 0).premium).toBe(1234);
    expect(Object.is(amountsView(parts(-0, 0), 2).premium, 0)).toBe(true);
  });
});

const base = { policyNumber: 'TIAU260000042', sequenceNumber: 2, currencyCode: 'AUD', notifications: [], now: NOW };

describe('amendmentView', () => {
  it('shows a stored preview in major units', () => {
    const view = amendmentView({ ...base, change: changeOf(), pricing: AMENDMENT });
    expect(view).toMatchObject({
      id: 'chg_1',
      status: 'PREVIEW',
      expiresAt: '2026-11-22T00:30:00.000Z',
      policyNumber: 'TIAU260000042',
      sequenceNumber: 2,
      currencyCode: 'AUD',
      input: AMENDMENT.input,
      priceResults: [{ planId: 101, standardExcess: 250 }],
      prices: [{ planId: 101, totalPrice: 132 }],
      paidToDate: { premium: 100, transactionAmount: 110 },
      repriced: { premium: 120, transactionAmount: 132 },
      difference: { premium: 20, fees: [{ name: 'Amendment fee', amount: 10 }], transactionAmount: 32 },
      transactionAmount: 32,
      createdAt: '2026-11-22T00:00:00.000Z',
      validation: { isValid: true, errors: [] },
    });
    expect(Value.Check(Amendment, view)).toBe(true);
    expectNoUndefined(view);
  });

  it('takes the pricing from the change when none is given', () => {
    expect(amendmentView({ ...base, change: changeOf() }).transactionAmount).toBe(32);
  });

  it('an invalid preview has no id, status or expiresAt', () => {
    const problem = { code: 'AMENDMENT_NOT_ALLOWED', message: 'No.', property: 'input.departureDate' };
    const view = amendmentView({ ...base, notifications: [problem] });
    expect(view).toStrictEqual({
      policyNumber: 'TIAU260000042',
      sequenceNumber: 2,
      currencyCode: 'AUD',
      validation: { isValid: false, errors: [problem] },
    });
    const priced = amendmentView({ ...base, pricing: AMENDMENT, notifications: [problem] });
    expect(priced).not.toHaveProperty('id');
    expect(priced.difference?.transactionAmount).toBe(32);
    expectNoUndefined(priced);
  });
});

describe('cancellationView', () => {
  it('shows the refund negative part by part and refundAmount positive', () => {
    const change = changeOf({ kind: 'CANCELLATION', pricing: CANCELLATION, amountMinor: -3000 });
    const view = cancellationView({ ...base, change });
    expect(view).toMatchObject({
      id: 'chg_1',
      status: 'PREVIEW',
      reasonCode: 'TRIP_CANCELLED',
      effectiveDate: '2026-11-22',
      refundBasis: 'PRO_RATA',
      coolingOffEndsAt: '2026-11-10T12:59:59.999Z',
      coverDays: 20,
      unusedCoverDays: 10,
      paidToDate: { transactionAmount: 110 },
      refund: { premium: -50, taxes: [{ name: 'GST', amount: -5 }], transactionAmount: -30 },
      refundAmount: 30,
    });
    expect(Value.Check(Cancellation, view)).toBe(true);
    expectNoUndefined(view);
  });

  it('a NONE refund is 0, never -0', () => {
    const none = { ...CANCELLATION, basis: 'NONE' as const, refund: parts(0, 0) };
    const view = cancellationView({ ...base, pricing: none });
    expect(Object.is(view.refundAmount, 0)).toBe(true);
    expect(view).not.toHaveProperty('status');
  });
});

const POLICY: PolicySummary = { policyNumber: 'TIAU260000042', sequenceNumber: 2 };

describe('confirmationView', () => {
  it('an applied charge: the card, its payment id and the amendment', () => {
    const change = changeOf({
      state: 'SETTLED',
      cardToken: 'tok_sandbox_approve',
      paymentId: 'pay_1',
      paymentResult: 'APPROVED',
      threeDSStatus: 'FRICTIONLESS',
      sequenceNumber: 2,
    });
    const view = confirmationView({ change, policy: POLICY, notifications: [], now: NOW });
    expect(view).toMatchObject({
      policy: POLICY,
      amendment: { id: 'chg_1', status: 'APPLIED', sequenceNumber: 2, transactionAmount: 32 },
      paymentResult: 'APPROVED',
      paymentMethod: 'CARD',
      paymentIds: 'pay_1',
      threeDSResponseInfo: { threeDSStatus: 'FRICTIONLESS' },
      validation: { isValid: true, errors: [] },
    });
    expect(view).not.toHaveProperty('cancellation');
    expect(view).not.toHaveProperty('refunds');
    expect(Value.Check(PolicyChangeConfirmation, view)).toBe(true);
    expectNoUndefined(view);
  });

  it('a pending challenge shows where to send the cardholder', () => {
    const challenge = {
      threeDSStatus: 'CHALLENGE_REQUIRED',
      threeDSRequestPattern: 'REDIRECT',
      threeDSResponse: 'https://acs.example/c/1',
    };
    const change = changeOf({
      state: 'CHALLENGE_PENDING',
      cardToken: 'tok',
      challenge,
      paymentResult: 'THREEDS_CHALLENGE_REQUIRED',
    });
    const view = confirmationView({ change, policy: POLICY, notifications: [], now: NOW });
    expect(view.amendment?.status).toBe('CHALLENGE_REQUIRED');
    expect(view.amendment?.sequenceNumber).toBe(2);
    expect(view.threeDSResponseInfo).toStrictEqual(challenge);
    expect(view).not.toHaveProperty('paymentIds');
  });

  it('a settled cancellation lists its refunds in major units', () => {
    const change = changeOf({
      kind: 'CANCELLATION',
      pricing: CANCELLATION,
      amountMinor: -3000,
      state: 'SETTLED',
      paymentResult: 'REFUNDED',
      refunds: [
        { paymentId: 'pay_1', amountMinor: 2000 },
        { paymentId: 'pay_2', amountMinor: 1000 },
      ],
      sequenceNumber: 2,
    });
    const view = confirmationView({ change, policy: POLICY, notifications: [], now: NOW });
    expect(view).toMatchObject({
      cancellation: { status: 'APPLIED', refundAmount: 30 },
      paymentResult: 'REFUNDED',
      paymentMethod: 'CARD',
      paymentIds: 'pay_1,pay_2',
      refunds: [
        { paymentId: 'pay_1', amount: 20 },
        { paymentId: 'pay_2', amount: 10 },
      ],
    });
    expect(view).not.toHaveProperty('amendment');
    expect(Value.Check(PolicyChangeConfirmation, view)).toBe(true);
    expectNoUndefined(view);
  });

  it('refunds not yet paid are not shown; a change with no money shows no payment', () => {
    const refunding = changeOf({
      kind: 'CANCELLATION',
      pricing: CANCELLATION,
      state: 'REFUNDING',
      refunds: [{ paymentId: 'pay_1', amountMinor: 3000 }],
    });
    const view = confirmationView({ change: refunding, policy: POLICY, notifications: [], now: NOW });
    expect(view.cancellation?.status).toBe('IN_PROGRESS');
    expect(view).not.toHaveProperty('refunds');
    const nothing = confirmationView({
      change: changeOf({ state: 'SETTLED' }),
      policy: POLICY,
      notifications: [],
      now: NOW,
    });
    expect(Object.keys(nothing).sort()).toEqual(['amendment', 'policy', 'validation']);
  });
});
