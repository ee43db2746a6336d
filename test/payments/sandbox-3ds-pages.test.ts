import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import {
  boughtPolicy,
  confirm,
  previewAmendment,
  type ChangeAnswer,
  type ConfirmAnswer,
} from '../policy-changes/support.js';
import { CARDS, NOW, purchase, purchaseBody, readyQuote, type PurchaseAnswer } from '../purchases/support.js';

let now = NOW;
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const FORM = { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded' };

/** A purchase waiting for its challenge, bought from the partner page `origin`. */
async function waitingPurchase(t: TestApp, origin?: string) {
  const quote = await readyQuote(t);
  const extra = origin === undefined ? {} : { threeDSRequestInfo: { origin } };
  const answer = (await purchase(t, purchaseBody(quote, CARDS.threeDsChallenge, extra))).json<PurchaseAnswer>();
  expect(answer.paymentResult).toBe('THREEDS_CHALLENGE_REQUIRED');
  const url = answer.threeDSResponseInfo!.threeDSResponse!;
  return { quote, url, path: new URL(url).pathname, challengeId: url.split('/').at(-1)! };
}

const expectPage = (answer: { headers: Record<string, unknown> }) => {
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(answer.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
  expect(answer.headers['cache-control']).toBe('no-store');
};

describe(`the sandbox issuer's 3-D Secure pages in a browser (${DIALECT})`, () => {
  it('show the merchant and the amount; after the answer, the way back to the partner with the continuation values', async () => {
    const t = getApp();
    const { quote, url, path, challengeId } = await waitingPurchase(
      t,
      'https://shop.partner.example/checkout?step=pay',
    );
    const page = await t.app.inject({ method: 'GET', url: path, headers: BROWSER });
    expect(page.statusCode).toBe(200);
    expectPage(page);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.body).toContain('<dd data-merchant>Brand Australia Travel Insurance</dd>');
    expect(page.body).toContain(`<dd class="amount" data-amount>A$${quote.totalPrice.toFixed(2)}</dd>`);

    const answer = await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: 'decision=approve' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('You approved the payment.');
    const back =
      /<a class="button" href="([^"]+)" target="_top" data-return>Return to Brand Australia Travel Insurance<\/a>/.exec(
        answer.body,
      );
    const target = new URL(back![1]!.replaceAll('&amp;', '&'));
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.partner.example/checkout');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      step: 'pay',
      threeDSRequest: challengeId,
      threeDSStatus: 'CHALLENGE_COMPLETED',
    });

    // A second answer: 409, the first one shown.
    const again = await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: 'decision=decline' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('You approved the payment.');

    // The partner continues with what the way back carried.
    const continued = await purchase(
      t,
      purchaseBody(quote, CARDS.threeDsChallenge, {
        threeDSRequestInfo: {
          threeDSRequest: target.searchParams.get('threeDSRequest'),
          threeDSStatus: target.searchParams.get('threeDSStatus'),
        },
      }),
    );
    expect(continued.json<PurchaseAnswer>().paymentResult).toBe('APPROVED');
    expect(url.endsWith(challengeId)).toBe(true);
  });

  it("an amendment's challenge names the brand too, and returns to the confirm's origin", async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);
    const preview = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-27' })
    ).json<ChangeAnswer>();
    const confirmed = await confirm(t, policyNumber, 'amendments', preview.id!, {
      key: 'pages-amend-1',
      body: {
        cardToken: { token: CARDS.threeDsChallenge },
        threeDSRequestInfo: { origin: 'https://agent.partner.example/policies/change' },
      },
    });
    const url = confirmed.json<ConfirmAnswer>().threeDSResponseInfo!.threeDSResponse!;
    const path = new URL(url).pathname;
    const page = await t.app.inject({ method: 'GET', url: path, headers: BROWSER });
    expect(page.body).toContain('<dd data-merchant>Brand Australia Travel Insurance</dd>');
    const answer = await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: 'decision=decline' });
    expect(answer.body).toContain(
      `href="https://agent.partner.example/policies/change?threeDSRequest=${url.split('/').at(-1)!}&amp;threeDSStatus=CHALLENGE_FAILED"`,
    );
  });

  it('a return address that is not http(s) is never a link', async () => {
    const t = getApp();
    const { path } = await waitingPurchase(t, 'javascript:alert(1)');
    const answer = await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: 'decision=decline' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).not.toContain('javascript:');
    expect(answer.body).not.toContain('data-return');
    expect(answer.body).toContain('Please return to Brand Australia Travel Insurance to complete your purchase.');
  });

  it('errors are pages with their status: unknown, malformed, a bad answer, expired', async () => {
    const t = getApp();
    const { path } = await waitingPurchase(t);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/sandbox/3ds/sbx_3ds_AAAAAAAAAAAAAAAA',
      headers: BROWSER,
    });
    const malformed = await t.app.inject({ method: 'GET', url: '/sandbox/3ds/nope', headers: BROWSER });
    const bad = await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: 'decision=maybe' });
    expect([unknown.statusCode, malformed.statusCode, bad.statusCode]).toEqual([404, 400, 400]);
    for (const answer of [unknown, malformed, bad]) {
      expectPage(answer);
      expect(answer.body).toContain('<h1>');
      expect(answer.body).not.toContain('validation');
    }
    expect(unknown.body).toContain('Challenge not found');
    try {
      now = new Date(NOW.getTime() + 15 * 60_000 + 1);
      const expired = await t.app.inject({ method: 'GET', url: path, headers: BROWSER });
      const late = await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: 'decision=approve' });
      for (const answer of [expired, late]) {
        expect(answer.statusCode).toBe(410);
        expectPage(answer);
        expect(answer.body).toContain('This challenge has expired or was cancelled; nothing was charged.');
        expect(answer.body).not.toContain('<form');
      }
    } finally {
      now = NOW;
    }
  });
});
