import { describe, expect, it } from 'vitest';
import { paymentGatewayFor } from '../../src/payments/gateways.js';
import type { PaymentGateway, SettlementOutcome } from '../../src/payments/gateway.js';
import { paymentResultOf } from '../../src/payments/flow/flow.js';
import { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';

const now = new Date('2026-11-24T10:00:00.000Z');
const getTestApp = useTestApp({ clock: () => now, env: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
const AUD = (amountMinor: number) => ({ amountMinor, currency: 'AUD' });
let sequence = 0;
const key = (label: string) => `refund-test:${String((sequence += 1))}:${label}`;

function gateway(): PaymentGateway {
  return paymentGatewayFor(getTestApp().context);
}

/** A payment authorised and captured in full with `cardToken`. */
async function capturedPaymentId(cardToken: string, amountMinor = 10_000): Promise<string> {
  const g = gateway();
  const authorised = await g.authorise({
    idempotencyKey: key('auth'),
    amount: AUD(amountMinor),
    cardToken,
    reference: 'purchase-refund',
  });
  if (authorised.outcome !== 'approved') throw new Error(`expected approval, got ${authorised.outcome}`);
  const captured = await g.capture({
    idempotencyKey: key('cap'),
    paymentId: authorised.paymentId,
    amount: AUD(amountMinor),
  });
  expect(captured).toMatchObject({ outcome: 'captured', amount: AUD(amountMinor) });
  return authorised.paymentId;
}

function refund(paymentId: string, amountMinor: number, idempotencyKey = key('ref')): Promise<SettlementOutcome> {
  return gateway().refund({ idempotencyKey, paymentId, amount: AUD(amountMinor) });
}

async function refundedMinor(paymentId: string): Promise<number> {
  const row = await getTestApp()
    .context.db.selectFrom('sandbox_payment')
    .select('refunded_minor')
    .where('payment_id', '=', paymentId)
    .executeTakeFirstOrThrow();
  return row.refunded_minor;
}

async function recordedOperation(idempotencyKey: string) {
  return getTestApp()
    .context.db.selectFrom('sandbox_operation')
    .select(['operation', 'payment_id'])
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

describe(`sandbox gateway: partial refunds (${DIALECT})`, () => {
  it('refunds in parts until the captured amount is exhausted, then refuses even one more cent', async () => {
    const paymentId = await capturedPaymentId(CARDS.approved);
    for (const part of [2500, 3500, 4000]) {
      expect(await refund(paymentId, part)).toEqual({ outcome: 'refunded', paymentId, amount: AUD(part) });
    }
    expect(await refundedMinor(paymentId)).toBe(10_000);
    const refusalKey = key('ref');
    const refusal = await refund(paymentId, 1, refusalKey);
    expect(refusal).toMatchObject({ outcome: 'rejected', paymentId, code: 'AMOUNT_EXCEEDS_CAPTURED' });
    // The refusal is an outcome like any other: recorded, and replayed to a retry.
    expect(await refund(paymentId, 1, refusalKey)).toEqual(refusal);
    expect(await refundedMinor(paymentId)).toBe(10_000);
  });

  it('replays a retried refund under the same key without refunding twice', async () => {
    const paymentId = await capturedPaymentId(CARDS.approved);
    const refundKey = key('ref');
    const first = await refund(paymentId, 4000, refundKey);
    expect(first).toEqual({ outcome: 'refunded', paymentId, amount: AUD(4000) });
    expect(await refund(paymentId, 4000, refundKey)).toEqual(first);
    expect(await refund(paymentId, 4000, refundKey)).toEqual(first);
    expect(await refundedMinor(paymentId)).toBe(4000);
    expect(await recordedOperation(refundKey)).toEqual({ operation: 'refund', payment_id: paymentId });
    // The same key for another amount is another call: refused, nothing refunded.
    expect(await refund(paymentId, 1000, refundKey)).toMatchObject({
      outcome: 'gateway_error',
      code: 'IDEMPOTENCY_KEY_REUSED',
      retryable: false,
    });
    expect(await refundedMinor(paymentId)).toBe(4000);
  });

  it('replays a refund that used up the captured amount, even though a new one would now be refused', async () => {
    const paymentId = await capturedPaymentId(CARDS.approved, 5000);
    const refundKey = key('ref');
    const first = await refund(paymentId, 5000, refundKey);
    expect(first).toMatchObject({ outcome: 'refunded', amount: AUD(5000) });
    expect(await refund(paymentId, 5000, refundKey)).toEqual(first);
    expect(await refund(paymentId, 5000)).toMatchObject({ outcome: 'rejected', code: 'AMOUNT_EXCEEDS_CAPTURED' });
    expect(await refundedMinor(paymentId)).toBe(5000);
  });

  it('refunds once when the same key is sent several times at the same moment', async () => {
    const paymentId = await capturedPaymentId(CARDS.approved);
    const refundKey = key('race');
    const results = await Promise.all([1, 2, 3, 4].map(() => refund(paymentId, 3000, refundKey)));
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(results[0]).toEqual({ outcome: 'refunded', paymentId, amount: AUD(3000) });
    expect(await refundedMinor(paymentId)).toBe(3000);
  });
});

describe(`sandbox gateway: refund test cards (${DIALECT})`, () => {
  it.each([CARDS.refundDeclined, CARDS.refundGatewayError])(
    '%s authorises and captures like an approved card',
    async (card) => {
      const authorised = await gateway().authorise({
        idempotencyKey: key('auth'),
        amount: AUD(1234),
        cardToken: card,
        reference: 'purchase-refund',
      });
      expect(authorised).toMatchObject({ outcome: 'approved', amount: AUD(1234), threeDSStatus: 'NOT_REQUIRED' });
      expect(paymentResultOf(authorised)).toBe('APPROVED');
      if (authorised.outcome !== 'approved') return;
      expect(
        await gateway().capture({ idempotencyKey: key('cap'), paymentId: authorised.paymentId, amount: AUD(1234) }),
      ).toMatchObject({ outcome: 'captured', amount: AUD(1234) });
    },
  );

  it(`${CARDS.refundDeclined}: every refund is rejected (REFUND_DECLINED), recorded and replayed`, async () => {
    const paymentId = await capturedPaymentId(CARDS.refundDeclined);
    const refundKey = key('ref');
    const first = await refund(paymentId, 4000, refundKey);
    expect(first).toEqual({
      outcome: 'rejected',
      paymentId,
      code: 'REFUND_DECLINED',
      message: 'The refund was declined.',
    });
    expect(await refund(paymentId, 4000, refundKey)).toEqual(first);
    expect(await recordedOperation(refundKey)).toEqual({ operation: 'refund', payment_id: paymentId });
    expect(await refund(paymentId, 10_000)).toMatchObject({ outcome: 'rejected', code: 'REFUND_DECLINED' });
    expect(await refund(paymentId, 1)).toMatchObject({ outcome: 'rejected', code: 'REFUND_DECLINED' });
    // The processor's own checks still come first.
    expect(await refund(paymentId, 10_001)).toMatchObject({ outcome: 'rejected', code: 'AMOUNT_EXCEEDS_CAPTURED' });
    expect(await refundedMinor(paymentId)).toBe(0);
  });

  it(`${CARDS.refundGatewayError}: every refund is a retryable outage, never recorded`, async () => {
    const paymentId = await capturedPaymentId(CARDS.refundGatewayError);
    const refundKey = key('ref');
    const outage = {
      outcome: 'gateway_error',
      code: 'SANDBOX_GATEWAY_ERROR',
      message: 'The sandbox gateway simulated an outage.',
      retryable: true,
    };
    expect(await refund(paymentId, 4000, refundKey)).toEqual(outage);
    expect(await refund(paymentId, 4000, refundKey)).toEqual(outage);
    expect(await recordedOperation(refundKey)).toBeUndefined();
    // Nothing holds the key, so it may carry another call (not IDEMPOTENCY_KEY_REUSED).
    expect(await refund(paymentId, 2500, refundKey)).toEqual(outage);
    expect(await refund(paymentId, 10_001)).toEqual(outage);
    expect(await refundedMinor(paymentId)).toBe(0);
  });

  it('leaves an approved card refundable, and an unknown payment refused', async () => {
    const paymentId = await capturedPaymentId(CARDS.approved, 2000);
    expect(await refund(paymentId, 2000)).toMatchObject({ outcome: 'refunded' });
    expect(await refund('sbx_pay_nope', 1)).toMatchObject({ outcome: 'rejected', code: 'PAYMENT_NOT_FOUND' });
  });
});
