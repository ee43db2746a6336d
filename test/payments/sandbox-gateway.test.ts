import { describe, expect, it } from 'vitest';
import { paymentGatewayFor } from '../../src/payments/gateways.js';
import type { AuthorisationOutcome, PaymentGateway } from '../../src/payments/gateway.js';
import { paymentResultOf } from '../../src/payments/flow/flow.js';
import { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';
import { SandboxGateway } from '../../src/payments/sandbox/gateway.js';
import { connectDatabase } from '../../src/db/connect.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const getTestApp = useTestApp({ clock: () => now, env: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
const AUD = (amountMinor: number) => ({ amountMinor, currency: 'AUD' });
let sequence = 0;
const key = (label: string) => `test:${String((sequence += 1))}:${label}`;

function gateway(): PaymentGateway {
  return paymentGatewayFor(getTestApp().context);
}

async function authorise(
  cardToken: string,
  idempotencyKey = key('authorise'),
  amountMinor = 12_345,
): Promise<AuthorisationOutcome> {
  return gateway().authorise({ idempotencyKey, amount: AUD(amountMinor), cardToken, reference: 'purchase-1' });
}

async function payments() {
  return getTestApp().context.db.selectFrom('sandbox_payment').selectAll().execute();
}

describe(`sandbox gateway: authorisation by test card (${DIALECT})`, () => {
  it('approves without 3-D Secure', async () => {
    const result = await authorise(CARDS.approved);
    expect(result).toMatchObject({ outcome: 'approved', amount: AUD(12_345), threeDSStatus: 'NOT_REQUIRED' });
    expect(paymentResultOf(result)).toBe('APPROVED');
  });

  it('approves after a frictionless 3-D Secure step', async () => {
    const result = await authorise(CARDS.threeDsFrictionless);
    expect(result).toMatchObject({ outcome: 'approved', threeDSStatus: 'FRICTIONLESS' });
  });

  it('declines, with a reason', async () => {
    const result = await authorise(CARDS.declined);
    expect(result).toMatchObject({ outcome: 'declined', reason: 'DO_NOT_HONOUR', threeDSStatus: 'NOT_REQUIRED' });
    expect(paymentResultOf(result)).toBe('DECLINED');
  });

  it('reports insufficient funds', async () => {
    const result = await authorise(CARDS.insufficientFunds);
    expect(result).toMatchObject({ outcome: 'insufficient_funds' });
    expect(paymentResultOf(result)).toBe('INSUFFICIENT_FUNDS');
  });

  it('answers a gateway error that a retry of the same key meets again, and records nothing', async () => {
    const before = (await payments()).length;
    const idempotencyKey = key('error');
    for (let i = 0; i < 2; i += 1) {
      const result = await authorise(CARDS.gatewayError, idempotencyKey);
      expect(result).toMatchObject({ outcome: 'gateway_error', code: 'SANDBOX_GATEWAY_ERROR', retryable: true });
      expect(paymentResultOf(result)).toBe('GATEWAY_ERROR');
    }
    expect(await payments()).toHaveLength(before);
  });

  it('declines an unknown token, and never stores something that looks like a card number', async () => {
    expect(await authorise('tok_nobody_issued_this')).toMatchObject({
      outcome: 'declined',
      reason: 'INVALID_CARD_TOKEN',
    });
    expect(await authorise('4111 1111 1111 1111')).toMatchObject({ outcome: 'declined', reason: 'INVALID_CARD_TOKEN' });
    const stored = JSON.stringify(await payments());
    expect(stored).not.toContain('4111');
  });

  it('refuses malformed calls as non-retryable errors', async () => {
    expect(await authorise(CARDS.approved, key('zero'), 0)).toMatchObject({
      outcome: 'gateway_error',
      code: 'INVALID_REQUEST',
      retryable: false,
    });
    expect(await authorise(CARDS.approved, '')).toMatchObject({ outcome: 'gateway_error', code: 'INVALID_REQUEST' });
    const lower = await gateway().authorise({
      idempotencyKey: key('c'),
      amount: { amountMinor: 1, currency: 'aud' },
      cardToken: CARDS.approved,
      reference: 'r',
    });
    expect(lower).toMatchObject({ outcome: 'gateway_error', code: 'INVALID_REQUEST' });
  });
});

describe(`sandbox gateway: idempotency keys (${DIALECT})`, () => {
  it('replays the first outcome for the same key and call, with one payment', async () => {
    const before = (await payments()).length;
    const idempotencyKey = key('replay');
    const first = await authorise(CARDS.approved, idempotencyKey);
    const second = await authorise(CARDS.approved, idempotencyKey);
    expect(second).toEqual(first);
    expect(await payments()).toHaveLength(before + 1);
  });

  it('refuses the same key for a different call', async () => {
    const idempotencyKey = key('mismatch');
    await authorise(CARDS.approved, idempotencyKey, 100);
    expect(await authorise(CARDS.approved, idempotencyKey, 200)).toMatchObject({
      outcome: 'gateway_error',
      code: 'IDEMPOTENCY_KEY_REUSED',
      retryable: false,
    });
  });

  it('authorises once when several connections send the same key at the same moment', async () => {
    const t = getTestApp();
    // PostgreSQL: three pools, as three processes would have. SQLite: one connection (a second
    // better-sqlite3 connection in the same process would block the event loop on the file lock).
    const others = DIALECT === 'postgres' ? [1, 2, 3].map(() => connectDatabase(t.database.database)) : [];
    try {
      const gateways = (others.length > 0 ? others : [t.context.db]).map(
        (db) => new SandboxGateway({ db, clock: () => now, challengeBaseUrl: 'https://pay.example.test/sandbox/3ds' }),
      );
      const before = (await payments()).length;
      const idempotencyKey = key('race');
      const request = { idempotencyKey, amount: AUD(5000), cardToken: CARDS.approved, reference: 'race' };
      const results = await Promise.all([...gateways, ...gateways].map((g) => g.authorise(request)));
      expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
      expect(results[0]).toMatchObject({ outcome: 'approved' });
      expect(await payments()).toHaveLength(before + 1);
    } finally {
      await Promise.all(others.map((db) => db.destroy()));
    }
  });
});

describe(`sandbox gateway: capture, void, refund (${DIALECT})`, () => {
  async function approvedPaymentId(amountMinor = 10_000): Promise<string> {
    const result = await authorise(CARDS.approved, key('auth'), amountMinor);
    if (result.outcome !== 'approved') throw new Error('expected approval');
    return result.paymentId;
  }

  it('captures, refunds in parts, and refuses more than was captured', async () => {
    const paymentId = await approvedPaymentId();
    const g = gateway();
    expect(await g.capture({ idempotencyKey: key('cap'), paymentId, amount: AUD(10_001) })).toMatchObject({
      outcome: 'rejected',
      code: 'AMOUNT_EXCEEDS_AUTHORISED',
    });
    const captureKey = key('cap');
    expect(await g.capture({ idempotencyKey: captureKey, paymentId, amount: AUD(10_000) })).toMatchObject({
      outcome: 'captured',
      amount: AUD(10_000),
    });
    // A retried capture is a replay, not a second charge.
    expect(await g.capture({ idempotencyKey: captureKey, paymentId, amount: AUD(10_000) })).toMatchObject({
      outcome: 'captured',
    });
    expect(await g.capture({ idempotencyKey: key('cap'), paymentId, amount: AUD(1) })).toMatchObject({
      outcome: 'rejected',
      code: 'AMOUNT_EXCEEDS_AUTHORISED',
    });
    expect(await g.void({ idempotencyKey: key('void'), paymentId })).toMatchObject({
      outcome: 'rejected',
      code: 'ALREADY_CAPTURED',
    });
    expect(await g.refund({ idempotencyKey: key('ref'), paymentId, amount: AUD(4000) })).toMatchObject({
      outcome: 'refunded',
      amount: AUD(4000),
    });
    expect(
      await g.refund({ idempotencyKey: key('ref'), paymentId, amount: { amountMinor: 1, currency: 'NZD' } }),
    ).toMatchObject({ code: 'CURRENCY_MISMATCH' });
    expect(await g.refund({ idempotencyKey: key('ref'), paymentId, amount: AUD(6001) })).toMatchObject({
      outcome: 'rejected',
      code: 'AMOUNT_EXCEEDS_CAPTURED',
    });
    expect(await g.refund({ idempotencyKey: key('ref'), paymentId, amount: AUD(6000) })).toMatchObject({
      outcome: 'refunded',
    });
    const row = (await payments()).find((p) => p.payment_id === paymentId);
    expect(row).toMatchObject({ captured_minor: 10_000, refunded_minor: 10_000 });
  });

  it('replays a retried partial capture (the payment could still be captured again) without charging twice', async () => {
    const paymentId = await approvedPaymentId();
    const g = gateway();
    const captureKey = key('cap');
    const first = await g.capture({ idempotencyKey: captureKey, paymentId, amount: AUD(4000) });
    expect(first).toMatchObject({ outcome: 'captured', amount: AUD(4000) });
    expect(await g.capture({ idempotencyKey: captureKey, paymentId, amount: AUD(4000) })).toEqual(first);
    expect(await g.capture({ idempotencyKey: captureKey, paymentId, amount: AUD(3000) })).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect((await payments()).find((p) => p.payment_id === paymentId)).toMatchObject({ captured_minor: 4000 });
  });

  it('voids an uncaptured hold, after which nothing can be captured', async () => {
    const paymentId = await approvedPaymentId(2500);
    const g = gateway();
    expect(await g.void({ idempotencyKey: key('void'), paymentId })).toMatchObject({
      outcome: 'voided',
      amount: AUD(2500),
    });
    expect(await g.void({ idempotencyKey: key('void'), paymentId })).toMatchObject({
      outcome: 'rejected',
      code: 'NOT_VOIDABLE',
    });
    expect(await g.capture({ idempotencyKey: key('cap'), paymentId, amount: AUD(1) })).toMatchObject({
      outcome: 'rejected',
      code: 'NOT_AUTHORISED',
    });
  });

  it('refuses to capture a declined or unknown payment', async () => {
    const declined = await authorise(CARDS.declined);
    if (declined.outcome !== 'declined') throw new Error('expected a decline');
    const g = gateway();
    expect(
      await g.capture({ idempotencyKey: key('cap'), paymentId: declined.paymentId, amount: AUD(1) }),
    ).toMatchObject({ code: 'NOT_AUTHORISED' });
    expect(await g.capture({ idempotencyKey: key('cap'), paymentId: 'sbx_pay_nope', amount: AUD(1) })).toMatchObject({
      code: 'PAYMENT_NOT_FOUND',
    });
  });
});
