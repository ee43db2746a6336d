import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeSettings } from '../../src/config/payments.js';
import type { AuthorisationOutcome, ThreeDsChallenge } from '../../src/payments/gateway.js';
import { StripeGateway } from '../../src/payments/stripe/gateway.js';
import { TEST_PAYMENT_METHODS as PM } from '../helpers/stripe-standin/ledger.js';
import { startStripeStandin, STANDIN_SECRET_KEY, type StripeStandin } from '../helpers/stripe-standin/server.js';
import { scaled } from '../helpers/time-scale.js';

/** The Stripe adapter against the local stand-in of Stripe's API (no database: the same on both engines). */

let standin: StripeStandin;
const AUD = (amountMinor: number) => ({ amountMinor, currency: 'AUD' });
let sequence = 0;
const key = (label: string) => `purchase:test-${String((sequence += 1))}:${label}`;
const RETURN_URL = 'https://partner.example/checkout/return';

beforeAll(async () => {
  standin = await startStripeStandin();
});
afterAll(async () => {
  await standin.close();
});

function gateway(overrides: Partial<StripeSettings> = {}, clock = () => new Date()): StripeGateway {
  const settings = { ...gatewaySettings(), ...overrides };
  return new StripeGateway({ settings, clock, defaultReturnUrl: 'https://api.example/stripe/3ds/return' });
}

const authorise = (cardToken: string, idempotencyKey = key('authorise'), g = gateway()) =>
  g.authorise({
    idempotencyKey,
    amount: AUD(12_345),
    cardToken,
    reference: 'purchase-1',
    checkout: { merchantName: 'Brand AU', returnUrl: RETURN_URL },
  });

const intentsWithKey = (idempotencyKey: string) =>
  new Set(standin.calls.filter((c) => c.idempotencyKey === idempotencyKey && c.status === 200).map((c) => c.path));

const paymentIdOf = (outcome: AuthorisationOutcome) => ('paymentId' in outcome ? outcome.paymentId : '');

/** What a browser does on the challenge page: open it, press a button, follow the redirect (not followed here). */
async function answerInBrowser(challenge: ThreeDsChallenge, answer: 'complete' | 'fail'): Promise<URL> {
  const opened = await fetch(challenge.threeDSResponse);
  expect(opened.status).toBe(200);
  const form = await opened.text();
  expect(form).toContain(`value="${answer}"`);
  const url = new URL(challenge.threeDSResponse);
  const body = new URLSearchParams({
    payment_intent: url.searchParams.get('payment_intent') ?? '',
    payment_intent_client_secret: url.searchParams.get('payment_intent_client_secret') ?? '',
    answer,
  });
  const posted = await fetch(new URL('/3d_secure_2/hosted', url), { method: 'POST', body, redirect: 'manual' });
  expect(posted.status).toBe(302);
  return new URL(posted.headers.get('location') ?? '');
}

describe('Stripe adapter against the stand-in: authorisation', () => {
  it('approves a card, then captures the hold', async () => {
    const approved = await authorise(PM.approve);
    expect(approved).toMatchObject({ outcome: 'approved', amount: AUD(12_345), threeDSStatus: 'NOT_REQUIRED' });
    const paymentId = paymentIdOf(approved);
    expect(standin.ledger.intents.get(paymentId)).toMatchObject({
      status: 'requires_capture',
      captureMethod: 'manual',
    });
    const captured = await gateway().capture({ idempotencyKey: key('capture'), paymentId, amount: AUD(12_345) });
    expect(captured).toEqual({ outcome: 'captured', paymentId, amount: AUD(12_345) });
    expect(standin.ledger.intents.get(paymentId)).toMatchObject({ status: 'succeeded', amountReceived: 12_345 });
  });

  it('declines, declines for funds and refuses an unknown token as values', async () => {
    const declined = await authorise(PM.decline);
    expect(declined).toMatchObject({ outcome: 'declined', reason: 'DO_NOT_HONOUR', threeDSStatus: 'NOT_REQUIRED' });
    expect(paymentIdOf(declined)).toMatch(/^pi_/);
    expect(await authorise(PM.insufficientFunds)).toMatchObject({ outcome: 'insufficient_funds' });
    expect(await authorise('pm_unknown_card')).toMatchObject({ outcome: 'declined', reason: 'INVALID_CARD_TOKEN' });
  });

  it('3-D Secure completed in the browser: challenge, the same challenge before the answer, then approved', async () => {
    const challenged = await authorise(PM.threeDSecure2Required);
    expect(challenged.outcome).toBe('challenge_required');
    if (challenged.outcome !== 'challenge_required') return;
    const { challenge, paymentId } = challenged;
    expect(challenge).toMatchObject({ threeDSStatus: 'CHALLENGE_REQUIRED', threeDSRequestPattern: 'REDIRECT' });
    expect(challenge.threeDSResponse.startsWith(`${standin.url}/3d_secure_2/hosted?`)).toBe(true);
    const continuation = {
      paymentId,
      threeDSStatus: 'CHALLENGE_COMPLETED',
      threeDSRequest: challenge.threeDSResponse,
    };
    const early = await gateway().continueThreeDs({ idempotencyKey: key('3ds'), ...continuation });
    expect(early).toEqual(challenged);

    const back = await answerInBrowser(challenge, 'complete');
    expect(back.origin + back.pathname).toBe(RETURN_URL);
    expect(back.searchParams.get('redirect_status')).toBe('succeeded');
    expect(back.searchParams.get('payment_intent')).toBe(paymentId);
    const done = await gateway().continueThreeDs({ idempotencyKey: key('3ds'), ...continuation });
    expect(done).toMatchObject({ outcome: 'approved', paymentId, threeDSStatus: 'CHALLENGE_COMPLETED' });
  });

  it('3-D Secure failed in the browser: declined, whatever the partner echoes', async () => {
    const challenged = await authorise(PM.authenticationRequired);
    if (challenged.outcome !== 'challenge_required') throw new Error(challenged.outcome);
    const back = await answerInBrowser(challenged.challenge, 'fail');
    expect(back.searchParams.get('redirect_status')).toBe('failed');
    const outcome = await gateway().continueThreeDs({
      idempotencyKey: key('3ds'),
      paymentId: challenged.paymentId,
      threeDSStatus: 'CHALLENGE_COMPLETED',
      threeDSRequest: challenged.challenge.threeDSResponse,
    });
    expect(outcome).toMatchObject({
      outcome: 'declined',
      reason: 'THREEDS_CHALLENGE_FAILED',
      threeDSStatus: 'CHALLENGE_FAILED',
    });
  });

  it('a challenge not answered in 15 minutes: the intent is cancelled and the payment declined as expired', async () => {
    const challenged = await authorise(PM.threeDSecure2Required);
    if (challenged.outcome !== 'challenge_required') throw new Error(challenged.outcome);
    const later = new Date(Date.parse(challenged.challenge.expiresAt) + 1000);
    const outcome = await gateway({}, () => later).continueThreeDs({
      idempotencyKey: key('3ds'),
      paymentId: challenged.paymentId,
      threeDSStatus: 'CHALLENGE_COMPLETED',
      threeDSRequest: challenged.challenge.threeDSResponse,
    });
    expect(outcome).toMatchObject({ outcome: 'declined', reason: 'THREEDS_CHALLENGE_EXPIRED' });
    expect(standin.ledger.intents.get(challenged.paymentId)?.status).toBe('canceled');
  });
});

function gatewaySettings(): StripeSettings {
  return {
    secretKey: STANDIN_SECRET_KEY,
    host: '127.0.0.1',
    port: standin.port,
    protocol: 'http',
    timeoutMs: scaled(10_000),
    maxNetworkRetries: 0,
  };
}

describe('Stripe adapter against the stand-in: settlement', () => {
  it('a capture Stripe refuses is rejected (not retried), and the hold can still be voided', async () => {
    const paymentId = paymentIdOf(await authorise(PM.approve));
    standin.ledger.faults.failCaptures = 1;
    const refused = await gateway().capture({ idempotencyKey: key('capture'), paymentId, amount: AUD(12_345) });
    expect(refused).toMatchObject({ outcome: 'rejected', paymentId, code: 'CHARGE_EXPIRED_FOR_CAPTURE' });
    const voided = await gateway().void({ idempotencyKey: key('void'), paymentId });
    expect(voided).toMatchObject({ outcome: 'voided', paymentId, amount: AUD(12_345) });
    expect(standin.ledger.intents.get(paymentId)?.status).toBe('canceled');
    // A voided hold cannot be captured: rejected, a value.
    const late = await gateway().capture({ idempotencyKey: key('capture'), paymentId, amount: AUD(12_345) });
    expect(late).toMatchObject({ outcome: 'rejected', code: 'PAYMENT_INTENT_UNEXPECTED_STATE' });
  });

  it('refunds in parts, replays a refund under its key, refuses too much and a refused refund', async () => {
    const paymentId = paymentIdOf(await authorise(PM.approve));
    await gateway().capture({ idempotencyKey: key('capture'), paymentId, amount: AUD(12_345) });
    const firstKey = key('refund');
    const first = await gateway().refund({ idempotencyKey: firstKey, paymentId, amount: AUD(2_345) });
    expect(first).toEqual({ outcome: 'refunded', paymentId, amount: AUD(2_345) });
    expect(await gateway().refund({ idempotencyKey: firstKey, paymentId, amount: AUD(2_345) })).toEqual(first);
    expect(standin.ledger.intents.get(paymentId)?.amountRefunded).toBe(2_345);
    const tooMuch = await gateway().refund({ idempotencyKey: key('refund'), paymentId, amount: AUD(10_001) });
    expect(tooMuch).toMatchObject({ outcome: 'rejected', code: 'AMOUNT_TOO_LARGE' });
    standin.ledger.faults.refuseRefunds = 1;
    const refused = await gateway().refund({ idempotencyKey: key('refund'), paymentId, amount: AUD(1_000) });
    expect(refused).toMatchObject({ outcome: 'rejected', code: 'CHARGE_DISPUTED' });
    const rest = await gateway().refund({ idempotencyKey: key('refund'), paymentId, amount: AUD(10_000) });
    expect(rest).toMatchObject({ outcome: 'refunded' });
    expect(standin.ledger.intents.get(paymentId)).toMatchObject({ amountReceived: 12_345, amountRefunded: 12_345 });
  });
});

describe('Stripe adapter against the stand-in: outages replay under the same key', () => {
  it('the same key replayed answers the same intent: one charge', async () => {
    const idempotencyKey = key('authorise');
    const first = await authorise(PM.approve, idempotencyKey);
    const again = await authorise(PM.approve, idempotencyKey);
    expect(again).toEqual(first);
    expect(intentsWithKey(idempotencyKey)).toEqual(new Set(['/v1/payment_intents']));
    const created = standin.calls.filter((c) => c.idempotencyKey === idempotencyKey);
    expect(created.map((c) => c.replayed)).toEqual([false, true]);
  });

  it("5xx answers: the SDK's own retries replay the key and the charge is made once", async () => {
    const before = standin.ledger.intents.size;
    standin.faults.failNext = 2;
    const idempotencyKey = key('authorise');
    const approved = await authorise(PM.approve, idempotencyKey, gateway({ maxNetworkRetries: 2 }));
    expect(approved.outcome).toBe('approved');
    expect(standin.ledger.intents.size).toBe(before + 1);
    expect(standin.calls.filter((c) => c.idempotencyKey === idempotencyKey).map((c) => c.status)).toEqual([
      500, 500, 200,
    ]);
  });

  it('5xx beyond the retries: a retryable gateway error, and our retry later charges once', async () => {
    standin.faults.failNext = 1;
    const idempotencyKey = key('authorise');
    const failed = await authorise(PM.approve, idempotencyKey);
    expect(failed).toMatchObject({ outcome: 'gateway_error', code: 'STRIPE_API_ERROR', retryable: true });
    const before = standin.ledger.intents.size;
    expect((await authorise(PM.approve, idempotencyKey)).outcome).toBe('approved');
    expect(standin.ledger.intents.size).toBe(before + 1);
  });

  it('a timeout after Stripe acted: a retryable error, and the retry replays the same intent', async () => {
    const timeoutMs = scaled(300);
    standin.faults.delayNext = 1;
    standin.faults.delayMs = timeoutMs * 4;
    const idempotencyKey = key('authorise');
    const before = standin.ledger.intents.size;
    const timedOut = await authorise(PM.approve, idempotencyKey, gateway({ timeoutMs }));
    expect(timedOut).toMatchObject({ outcome: 'gateway_error', code: 'STRIPE_UNREACHABLE', retryable: true });
    // Stripe created the intent before the answer was lost.
    expect(standin.ledger.intents.size).toBe(before + 1);
    const retried = await authorise(PM.approve, idempotencyKey);
    expect(retried.outcome).toBe('approved');
    expect(standin.ledger.intents.size).toBe(before + 1);
  });

  it('recovery replays authorise without the checkout: the intent is found, not charged again', async () => {
    const idempotencyKey = key('authorise');
    const challenged = await authorise(PM.threeDSecure2Required, idempotencyKey);
    const before = standin.ledger.intents.size;
    // Recovery has no request: no partner page to return to, so the confirm's parameters differ.
    const replay = await gateway().authorise({
      idempotencyKey,
      amount: AUD(12_345),
      cardToken: PM.threeDSecure2Required,
      reference: 'purchase-1',
    });
    expect(replay).toEqual(challenged);
    expect(standin.ledger.intents.size).toBe(before);
  });
});
