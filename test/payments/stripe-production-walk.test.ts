import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDemoCatalogue } from '../../src/catalogue/import.js';
import { StripeGateway } from '../../src/payments/stripe/gateway.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { TEST_PAYMENT_METHODS as PM } from '../helpers/stripe-standin/ledger.js';
import { startStripeStandin, type StripeStandin } from '../helpers/stripe-standin/server.js';
import {
  confirm,
  details,
  minor,
  NOW,
  previewAmendment,
  previewCancellation,
  summary,
  type ChangeAnswer,
  type ConfirmAnswer,
} from '../policy-changes/support.js';
import { detailedTrip, planOf, purchase, purchaseBody, readyQuote, type PurchaseAnswer } from '../purchases/support.js';

/**
 * A production app (APP_ENV=production: no demo data, no sandbox) whose card gateway is Stripe,
 * pointed at the local stand-in: purchase with 3-D Secure → amendment (charged) → cancellation
 * (refunded), and Stripe's books agree with the policy's.
 */

const PRODUCTION = {
  APP_ENV: 'production',
  DEMO_DATA: 'false',
  PUBLIC_BASE_URL: 'https://api.insurer.example',
  KEY_ENCRYPTION_SECRET: 'production-walk-secret-of-at-least-32-characters',
  CONSOLE_SESSION_SECRET: 'a-console-session-secret-of-32-characters-or-more',
  SMTP_URL: 'smtp://127.0.0.1:9',
};
const ORIGIN = 'https://shop.partner.example/checkout';

let standin: StripeStandin;
let t: TestApp;

beforeAll(async () => {
  standin = await startStripeStandin();
  t = await buildTestApp({
    env: { ...PRODUCTION, ...standin.env },
    clock: () => NOW,
    // Production imports no demo data: the catalogue comes in as an operator's import would.
    prepare: (context) => importDemoCatalogue(context.db, context.config.catalogueDir),
  });
});
afterAll(async () => {
  await t.close();
  await standin.close();
});

/** The cardholder's browser on Stripe's page: press the button, and land on the partner's page. */
async function completeInBrowser(challengeUrl: string): Promise<URL> {
  const url = new URL(challengeUrl);
  const opened = await fetch(url);
  expect(opened.status).toBe(200);
  expect(await opened.text()).toContain('Complete authentication');
  const form = new URLSearchParams(url.searchParams);
  form.set('answer', 'complete');
  const posted = await fetch(new URL('/3d_secure_2/hosted', url), { method: 'POST', body: form, redirect: 'manual' });
  expect(posted.status).toBe(302);
  return new URL(posted.headers.get('location') ?? '');
}

describe(`production with Stripe (the stand-in): purchase with 3-D Secure, amendment, cancellation (${DIALECT})`, () => {
  it('starts with Stripe as the card gateway and no sandbox pages', async () => {
    expect(t.context.config).toMatchObject({ env: 'production', paymentGateway: 'stripe' });
    expect(t.app.paymentGateway).toBeInstanceOf(StripeGateway);
    const sandboxPage = await t.app.inject({ method: 'GET', url: '/sandbox/3ds/sbx_3ds_AAAAAAAAAAAAAAAA' });
    expect(sandboxPage.statusCode).toBe(404);
    const returnPage = await t.app.inject({ method: 'GET', url: '/stripe/3ds/return?redirect_status=succeeded' });
    expect(returnPage.statusCode).toBe(200);
    expect(returnPage.body).toContain('Authentication finished');
  });

  it('walks the policy through Stripe, and captured − refunded at Stripe equals what the policy holds', async () => {
    // 1. Purchase: Stripe asks for 3-D Secure; the cardholder completes it; the continuation buys.
    const quote = await readyQuote(t, 'brandau');
    const first = await purchase(
      t,
      purchaseBody(quote, PM.threeDSecure2Required, { threeDSRequestInfo: { origin: ORIGIN } }),
      { key: 'walk-buy-1' },
    );
    expect(first.statusCode, first.body).toBe(200);
    const challenged = first.json<PurchaseAnswer>();
    expect(challenged.paymentResult).toBe('THREEDS_CHALLENGE_REQUIRED');
    const challengeUrl = challenged.threeDSResponseInfo?.threeDSResponse ?? '';
    expect(challengeUrl.startsWith(`${standin.url}/3d_secure_2/hosted?`)).toBe(true);
    expect(standin.netCaptured()).toBe(0);

    const back = await completeInBrowser(challengeUrl);
    expect(`${back.origin}${back.pathname}`).toBe(ORIGIN);
    expect(back.searchParams.get('redirect_status')).toBe('succeeded');
    const continued = await purchase(
      t,
      purchaseBody(quote, PM.threeDSecure2Required, {
        threeDSRequestInfo: { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: challengeUrl, origin: ORIGIN },
      }),
      { key: 'walk-buy-2' },
    );
    expect(continued.statusCode, continued.body).toBe(200);
    const bought = continued.json<PurchaseAnswer>();
    expect(bought.paymentResult, continued.body).toBe('APPROVED');
    expect(bought.threeDSResponseInfo).toEqual({ threeDSStatus: 'CHALLENGE_COMPLETED' });
    const policyNumber = bought.quote.policyNumber!;
    expect(policyNumber).toBeTruthy();
    const intentId = bought.paymentIds!;
    expect(standin.ledger.intents.get(intentId)).toMatchObject({ status: 'succeeded', captureMethod: 'manual' });
    const purchased = standin.netCaptured();
    expect(purchased).toBeGreaterThan(0);

    // 2. Amendment that costs more: charged through Stripe with another PaymentMethod.
    const { planId } = await planOf(t, 'brandau', 'COMP');
    const longer = await previewAmendment(t, policyNumber, { ...detailedTrip(planId), returnDate: '2026-12-27' });
    expect(longer.statusCode, longer.body).toBe(200);
    const preview = longer.json<ChangeAnswer>();
    expect(preview.difference!.transactionAmount).toBeGreaterThan(0);
    const amended = await confirm(t, policyNumber, 'amendments', preview.id!, {
      key: 'walk-amend',
      body: { cardToken: { token: PM.approve } },
    });
    expect(amended.statusCode, amended.body).toBe(200);
    expect(amended.json<ConfirmAnswer>()).toMatchObject({ paymentResult: 'APPROVED', policy: { sequenceNumber: 2 } });
    expect(standin.netCaptured()).toBe(purchased + minor(preview.difference!.transactionAmount));

    // 3. Cancellation: refunded through Stripe, line by line to each intent.
    const cancel = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    expect(cancel.validation.isValid, JSON.stringify(cancel.validation)).toBe(true);
    const cancelled = await confirm(t, policyNumber, 'cancellations', cancel.id!, { key: 'walk-cancel' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const answer = cancelled.json<ConfirmAnswer>();
    expect(answer.validation.isValid, cancelled.body).toBe(true);
    expect(answer.policy).toMatchObject({ policyStatus: 'Cancelled', sequenceNumber: 3 });
    const refunds = [...standin.ledger.refunds.values()];
    expect(refunds.length).toBeGreaterThan(0);
    expect(refunds.every((r) => r.status === 'succeeded')).toBe(true);

    // Stripe's books and the policy's agree: captured − refunded = the policy's aggregate.
    const now = await summary(t, policyNumber);
    expect(standin.netCaptured()).toBe(minor(now.transactionValueAggregateAmount.amount));
    const all = await details(t, policyNumber);
    const paid = all.reduce((sum, d) => sum + minor(d.financialSummary.transactionAmount), 0);
    expect(standin.netCaptured()).toBe(paid);

    // Replaying the cancellation's confirm moves no money again.
    const before = standin.netCaptured();
    const again = await confirm(t, policyNumber, 'cancellations', cancel.id!, { key: 'walk-cancel' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(standin.netCaptured()).toBe(before);
  });
});
