import { describe, expect, it } from 'vitest';
import type { PolicyChange } from '../policy-changes/model.js';
import { NO_PARTS, partsOf } from '../policy-changes/parts.js';
import { changeReferences, changeRefundedEvent, policyChangedEvent } from './data.js';

const paid = partsOf({ premium: 20_000, discount: 0, taxes: [{ name: 'GST', amount: 2_000 }], donation: 0, fees: [] });

/** A settled cancellation refunding 150.00 AUD to two payments. */
const cancellation = {
  id: 'chg-1',
  kind: 'CANCELLATION',
  policyNumber: 'TIAU260000042',
  brandCode: 'brandau',
  partnerId: 7,
  baseSequenceNumber: 2,
  amountMinor: -15_000,
  currency: 'AUD',
  paymentMethod: 'ON_ACCOUNT',
  pricing: {
    kind: 'CANCELLATION',
    reasonCode: 'TRIP_CANCELLED',
    effectiveDate: '2026-12-01',
    paid,
    refund: NO_PARTS,
  },
  refunds: [
    { paymentId: 'pay_a', amountMinor: 10_000 },
    { paymentId: 'pay_b', amountMinor: 5_000 },
  ],
} as unknown as PolicyChange;

describe('event data of a change', () => {
  it('policy.cancelled: the transaction signed, the total after it, the reason; major units', () => {
    const event = policyChangedEvent(cancellation, { quoteId: 'q1', bookingReference: 'BK-1' });
    expect(event).toMatchObject({ type: 'policy.cancelled', sourceKey: 'policy.cancelled:chg-1', partnerId: 7 });
    expect(event.data).toEqual({
      policyNumber: 'TIAU260000042',
      brandCode: 'brandau',
      sequenceNumber: 3,
      actionType: 'Cancellation',
      policyStatus: 'Cancelled',
      amounts: { currency: 'AUD', transactionAmount: -150, totalPaidToDate: 70 },
      quoteId: 'q1',
      externalIdentifiers: { bookingReference: 'BK-1' },
      reasonCode: 'TRIP_CANCELLED',
      effectiveDate: '2026-12-01',
    });
  });

  const all = { paid: cancellation.refunds ?? [], refundedMinor: 15_000, outstandingMinor: 0 };

  it('payment.refunded: the amount positive, each payment it went back to', () => {
    const event = changeRefundedEvent(cancellation, {}, all);
    expect(event.data).not.toHaveProperty('outstandingAmount');
    expect(event.data).toMatchObject({
      amount: 150,
      currency: 'AUD',
      paymentReference: 'pay_a',
      paymentMethod: 'ON_ACCOUNT',
      refunds: [
        { paymentReference: 'pay_a', amount: 100 },
        { paymentReference: 'pay_b', amount: 50 },
      ],
      externalIdentifiers: { bookingReference: null },
    });
  });

  it('payment.refunded of a refund that went through in part: what was paid back, what is owed still', () => {
    const part = { paid: [{ paymentId: 'pay_b', amountMinor: 5_000 }], refundedMinor: 5_000, outstandingMinor: 10_000 };
    expect(changeRefundedEvent(cancellation, {}, part).data).toMatchObject({
      amount: 50,
      paymentReference: 'pay_b',
      refunds: [{ paymentReference: 'pay_b', amount: 50 }],
      outstandingAmount: 100,
    });
  });

  it("an amendment's own booking reference wins over the policy's", () => {
    const amendment = {
      ...cancellation,
      kind: 'AMENDMENT',
      pricing: { kind: 'AMENDMENT', input: { externalIdentifiers: { bookingReference: 'BK-2' } } },
    } as unknown as PolicyChange;
    expect(changeReferences(amendment, { quoteId: 'q1', bookingReference: 'BK-1' })).toEqual({
      quoteId: 'q1',
      bookingReference: 'BK-2',
    });
    expect(changeReferences(cancellation, { quoteId: 'q1' })).toEqual({ quoteId: 'q1' });
  });
});
