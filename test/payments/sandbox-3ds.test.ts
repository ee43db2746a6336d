import { describe, expect, it } from 'vitest';
import { paymentGatewayFor } from '../../src/payments/gateways.js';
import type { AuthorisationOutcome, ThreeDsChallenge } from '../../src/payments/gateway.js';
import { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';

let now = new Date('2026-11-22T10:00:00.000Z');
const getTestApp = useTestApp({ clock: () => now, env: { PUBLIC_BASE_URL: 'https://pay.example.test' } });
const AUD = (amountMinor: number) => ({ amountMinor, currency: 'AUD' });
let sequence = 0;
const key = (label: string) => `3ds:${String((sequence += 1))}:${label}`;
const gateway = () => paymentGatewayFor(getTestApp().context);

async function challenge(amountMinor = 45_678): Promise<{ paymentId: string; challenge: ThreeDsChallenge }> {
  const result = await gateway().authorise({
    idempotencyKey: key('auth'),
    amount: AUD(amountMinor),
    cardToken: CARDS.threeDsChallenge,
    reference: 'p',
  });
  if (result.outcome !== 'challenge_required') throw new Error(`expected a challenge, got ${result.outcome}`);
  return result;
}

/** The cardholder's browser: follows the challenge URL, then posts the form it finds there. */
async function answerInBrowser(url: string, decision: 'approve' | 'decline') {
  const { app } = getTestApp();
  const path = new URL(url).pathname;
  const page = await app.inject({ method: 'GET', url: path });
  expect(page.statusCode).toBe(200);
  const action = /<form method="post" action="([^"]+)">/.exec(page.body)?.[1];
  expect(action).toBeDefined();
  const target = new URL(action!, url).pathname;
  return app.inject({
    method: 'POST',
    url: target,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `decision=${decision}`,
  });
}

function continueWith(
  paymentId: string,
  c: ThreeDsChallenge,
  idempotencyKey = key('continue'),
  threeDSStatus = 'CHALLENGE_COMPLETED',
): Promise<AuthorisationOutcome> {
  return gateway().continueThreeDs({ idempotencyKey, paymentId, threeDSStatus, threeDSRequest: c.threeDSResponse });
}

describe(`sandbox 3-D Secure challenge (${DIALECT})`, () => {
  it('asks for a challenge with what threeDSResponseInfo needs, and holds nothing yet', async () => {
    const { paymentId, challenge: c } = await challenge();
    expect(c).toMatchObject({ threeDSStatus: 'CHALLENGE_REQUIRED', threeDSRequestPattern: 'REDIRECT' });
    expect(c.threeDSResponse).toBe(`https://pay.example.test/sandbox/3ds/${c.challengeId}`);
    expect(c.expiresAt).toBe('2026-11-22T10:15:00.000Z');
    expect(await gateway().capture({ idempotencyKey: key('cap'), paymentId, amount: AUD(1) })).toMatchObject({
      outcome: 'rejected',
      code: 'NOT_AUTHORISED',
    });
  });

  it('serves the challenge page: amount, Approve and Decline, locked-down headers', async () => {
    const { challenge: c } = await challenge(45_678);
    const page = await getTestApp().app.inject({ method: 'GET', url: `/sandbox/3ds/${c.challengeId}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('A$456.78');
    expect(page.body).toMatch(/value="approve">Approve</);
    expect(page.body).toMatch(/value="decline">Decline</);
  });

  it('approve: the continuation authorises, only then can the card be charged', async () => {
    const { paymentId, challenge: c } = await challenge(30_000);
    const continueKey = key('continue');
    // Before the cardholder answers, the challenge stands (and that answer is not replayed later).
    expect(await continueWith(paymentId, c, continueKey)).toMatchObject({
      outcome: 'challenge_required',
      challenge: c,
    });

    const answer = await answerInBrowser(c.threeDSResponse, 'approve');
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('You approved the payment.');
    expect(answer.body).toContain('return to the merchant');

    const approved = await continueWith(paymentId, c, continueKey);
    expect(approved).toEqual({
      outcome: 'approved',
      paymentId,
      amount: AUD(30_000),
      threeDSStatus: 'CHALLENGE_COMPLETED',
    });
    expect(await continueWith(paymentId, c, continueKey)).toEqual(approved);
    expect(await gateway().capture({ idempotencyKey: key('cap'), paymentId, amount: AUD(30_000) })).toMatchObject({
      outcome: 'captured',
    });
  });

  it('only the first answer counts', async () => {
    const { paymentId, challenge: c } = await challenge();
    await answerInBrowser(c.threeDSResponse, 'approve');
    // A replayed or forged second post (the page no longer offers the form).
    const second = await getTestApp().app.inject({
      method: 'POST',
      url: `/sandbox/3ds/${c.challengeId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'decision=decline',
    });
    expect(second.body).toContain('You approved the payment.');
    // The issuer's record decides, whatever status the merchant echoes.
    expect(await continueWith(paymentId, c, key('continue'), 'CHALLENGE_FAILED')).toMatchObject({
      outcome: 'approved',
    });
  });

  it('decline: the continuation declines with CHALLENGE_FAILED', async () => {
    const { paymentId, challenge: c } = await challenge();
    const answer = await answerInBrowser(c.threeDSResponse, 'decline');
    expect(answer.body).toContain('You declined the payment.');
    expect(await continueWith(paymentId, c)).toEqual({
      outcome: 'declined',
      paymentId,
      reason: 'THREEDS_CHALLENGE_FAILED',
      threeDSStatus: 'CHALLENGE_FAILED',
    });
    expect(await gateway().capture({ idempotencyKey: key('cap'), paymentId, amount: AUD(1) })).toMatchObject({
      code: 'NOT_AUTHORISED',
    });
  });

  it('an unanswered challenge expires after 15 minutes', async () => {
    const { paymentId, challenge: c } = await challenge();
    now = new Date(now.getTime() + 15 * 60 * 1000 + 1);
    try {
      const page = await getTestApp().app.inject({ method: 'GET', url: `/sandbox/3ds/${c.challengeId}` });
      expect(page.body).toContain('expired');
      expect(page.body).not.toContain('<form');
      const late = await getTestApp().app.inject({
        method: 'POST',
        url: `/sandbox/3ds/${c.challengeId}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'decision=approve',
      });
      expect(late.body).toContain('expired');
      expect(await continueWith(paymentId, c)).toMatchObject({
        outcome: 'declined',
        reason: 'THREEDS_CHALLENGE_EXPIRED',
        threeDSStatus: 'CHALLENGE_FAILED',
      });
    } finally {
      now = new Date('2026-11-22T10:00:00.000Z');
    }
  });

  it('voiding a pending challenge closes it without holding anything', async () => {
    const { paymentId, challenge: c } = await challenge(999);
    expect(await gateway().void({ idempotencyKey: key('void'), paymentId })).toMatchObject({
      outcome: 'voided',
      amount: AUD(0),
    });
    const answer = await answerInBrowser(c.threeDSResponse, 'approve').catch(() => undefined);
    expect(answer).toBeUndefined(); // the page no longer offers the form
    const page = await getTestApp().app.inject({ method: 'GET', url: `/sandbox/3ds/${c.challengeId}` });
    expect(page.body).toContain('expired or was cancelled');
    expect(await continueWith(paymentId, c)).toMatchObject({ outcome: 'gateway_error', code: 'PAYMENT_VOIDED' });
  });

  it('refuses a continuation naming another challenge or an unknown status, without using up the key', async () => {
    const first = await challenge();
    const other = await challenge();
    const continueKey = key('continue');
    expect(await continueWith(first.paymentId, other.challenge, continueKey)).toMatchObject({
      outcome: 'gateway_error',
      code: 'THREEDS_REQUEST_MISMATCH',
      retryable: false,
    });
    await answerInBrowser(other.challenge.threeDSResponse, 'approve');
    expect(await continueWith(other.paymentId, other.challenge, continueKey)).toMatchObject({ outcome: 'approved' });
    expect(await continueWith(first.paymentId, first.challenge, key('c'), 'Y')).toMatchObject({
      code: 'THREEDS_STATUS_INVALID',
    });
    // The bare challenge id is accepted as the echo too.
    const byId = await gateway().continueThreeDs({
      idempotencyKey: key('c'),
      paymentId: first.paymentId,
      threeDSStatus: 'CHALLENGE_COMPLETED',
      threeDSRequest: first.challenge.challengeId,
    });
    expect(byId).toMatchObject({ outcome: 'challenge_required' });
  });

  it('answers JSON errors for unknown challenges and bad answers, and stays out of the partner OpenAPI', async () => {
    const { app } = getTestApp();
    const unknown = await app.inject({ method: 'GET', url: '/sandbox/3ds/sbx_3ds_AAAAAAAAAAAAAAAA' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      validation: { isValid: false, errors: [{ code: 'THREEDS_CHALLENGE_NOT_FOUND' }] },
    });
    expect((await app.inject({ method: 'GET', url: '/sandbox/3ds/nope' })).statusCode).toBe(400);
    const { challenge: c } = await challenge();
    const bad = await app.inject({
      method: 'POST',
      url: `/sandbox/3ds/${c.challengeId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'decision=maybe',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      Object.keys((app.swagger() as { paths: Record<string, unknown> }).paths).some((p) => p.includes('sandbox')),
    ).toBe(false);
  });
});
