import { describe, expect, it } from 'vitest';
import { eventFactsOf, objectFactsOf } from './facts.js';

describe("a Stripe event's facts", () => {
  it('keeps what applying needs of each kind of object, nothing else', () => {
    expect(
      objectFactsOf('payment_intent.succeeded', {
        id: 'pi_1',
        amount: 12345,
        currency: 'aud',
        status: 'succeeded',
        payment_method: 'pm_1',
        last_payment_error: { message: 'x' },
      }),
    ).toEqual({ kind: 'payment_intent', paymentId: 'pi_1', status: 'succeeded', amountMinor: 12345, currency: 'AUD' });
    expect(
      objectFactsOf('refund.failed', {
        id: 're_1',
        amount: 500,
        currency: 'aud',
        payment_intent: { id: 'pi_2', object: 'payment_intent' },
        status: 'failed',
        failure_reason: 'expired_or_canceled_card',
      }),
    ).toEqual({
      kind: 'refund',
      refundId: 're_1',
      paymentId: 'pi_2',
      amountMinor: 500,
      currency: 'AUD',
      status: 'failed',
      failureReason: 'expired_or_canceled_card',
    });
    expect(objectFactsOf('charge.refunded', { id: 'ch_1', payment_intent: 'pi_3', billing_details: {} })).toEqual({
      kind: 'charge',
      chargeId: 'ch_1',
      paymentId: 'pi_3',
    });
    expect(objectFactsOf('charge.dispute.created', { id: 'du_1', amount: 1, currency: 'nzd' })).toEqual({
      kind: 'dispute',
      disputeId: 'du_1',
      amountMinor: 1,
      currency: 'NZD',
      reason: 'unknown',
      status: 'unknown',
    });
  });

  it('treats fields of the wrong type as absent, and an object without an id as nothing', () => {
    expect(objectFactsOf('payment_intent.succeeded', { id: 7 })).toEqual({ kind: 'other' });
    expect(objectFactsOf('customer.created', { id: 'cus_1' })).toEqual({ kind: 'other' });
    expect(objectFactsOf('refund.updated', { id: 're_2', amount: '10', payment_intent: 3 })).toEqual({
      kind: 'refund',
      refundId: 're_2',
      amountMinor: 0,
      currency: '',
      status: '',
    });
    const facts = eventFactsOf({
      id: 'evt_1',
      type: 'x.y',
      livemode: true,
      created: 1_800_000_000,
      data: { object: null },
    });
    expect(facts).toEqual({
      eventId: 'evt_1',
      type: 'x.y',
      livemode: true,
      createdAt: '2027-01-15T08:00:00.000Z',
      object: { kind: 'other' },
    });
  });
});
