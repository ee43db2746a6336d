import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { checkConsolePage, hasChromium, launchChromium, listen, operatorTab } from '../helpers/console-browser.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import { CARDS, purchase, purchaseBody, type PurchaseAnswer } from '../purchases/support.js';
import { referralIdOf, referredQuote } from '../referrals/support.js';
import {
  registerEndpoint,
  startWebhookReceiver,
  verifyWebhook,
  webhookWorker,
  type WebhookReceiver,
} from '../webhooks/support.js';

// Issue 31, "Done when": in Chromium, an underwriter approves a referred quote with a loading and
// the partner buys it; declines another and the partner's webhook arrives. No JavaScript in the tab.
describe.skipIf(!hasChromium)(`an underwriter's referral walk in Chromium (${DIALECT})`, () => {
  const getApp = useTestApp({ env: { DEMO_DATA: 'true' } });
  let browser: Browser | undefined;
  let receiver: WebhookReceiver | undefined;
  let origin = '';

  beforeAll(async () => {
    origin = await listen(getApp());
    receiver = await startWebhookReceiver();
    browser = await launchChromium();
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  /** Opens the referral from the queue, as an underwriter finds it. */
  async function openFromQueue(page: Page, referralId: string, seen: Map<string, string>): Promise<void> {
    await page.getByRole('link', { name: 'Referrals' }).click();
    await page.waitForURL(`${origin}/console/referrals`);
    seen.set('queue', await page.content());
    await page.locator(`a[href="/console/referrals/${referralId}"]`).click();
    await page.waitForURL(`${origin}/console/referrals/${referralId}`);
    seen.set('referral', await page.content());
  }

  it(
    'approves one with a loading (the partner buys it, Authorised) and declines another (the webhook arrives)',
    async () => {
      const t = getApp();
      const endpoint = await registerEndpoint(t, { url: `${receiver!.url}/hooks` });
      const approvedQuote = await referredQuote(t);
      const declinedQuote = await referredQuote(t);
      const seen = new Map<string, string>();
      const page = await operatorTab(browser!, t, origin, 'UNDERWRITER');
      seen.set('home', await page.content());

      const first = await referralIdOf(t, approvedQuote.id);
      await openFromQueue(page, first, seen);
      await page.getByLabel("Loading (% of the plan's premium)").fill('10');
      await page.getByLabel('Extra excess').fill('100');
      await page.locator('#approve-reason').fill('Experienced traveller; embassy contact on file');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(`${origin}/console/referrals/${first}`);
      expect(await page.locator('.status').first().textContent()).toBe('APPROVED');
      seen.set('approved', await page.content());

      const quote = await approvedQuote.get();
      expect(quote.referral).toMatchObject({ status: 'APPROVED', loadingPercentage: 10, extraExcess: 100 });
      const bought = await purchase(
        t,
        purchaseBody({ id: approvedQuote.id, termIds: approvedQuote.plan.termIds }, CARDS.approved),
      );
      expect(bought.statusCode, bought.body).toBe(200);
      const policyNumber = bought.json<PurchaseAnswer>().quote.policyNumber;
      const details = await t.app.inject({
        method: 'GET',
        url: `/policies/v1/brandau/policies/${policyNumber ?? ''}`,
        headers: await bearerFor(t, 'brandau', 'A'),
      });
      expect(details.json()).toMatchObject({ detailStatus: 'Authorised' });

      const second = await referralIdOf(t, declinedQuote.id);
      await openFromQueue(page, second, seen);
      await page.locator('#decline-reason').fill('Destination outside appetite for this trip');
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.waitForURL(`${origin}/console/referrals/${second}`);
      expect(await page.locator('.status').first().textContent()).toBe('DECLINED');

      // The partner's webhook: the events are published and delivered by a worker driven here.
      const worker = webhookWorker(t);
      for (let pass = 0; pass < 4; pass += 1) await worker.runOnce();
      await worker.stop();
      const declined = receiver!.received
        .map((delivery) => verifyWebhook(endpoint.secret, delivery) as { type: string; data: { quoteId?: string } })
        .filter((event) => event.type === 'quote.referral_declined');
      expect(declined).toHaveLength(1);
      expect(JSON.stringify(declined[0])).toContain(declinedQuote.id);
      expect(JSON.stringify(declined[0])).not.toContain('outside appetite');

      await page.getByRole('link', { name: /Test underwriter/ }).click();
      seen.set('account', await page.content());
      for (const [name, markup] of seen) await checkConsolePage(browser!, markup, name);
    },
    scaled(120_000),
  );

  it(
    'the sign-in page passes axe and refuses a wrong password in words',
    async () => {
      const context = await browser!.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${origin}/console/sign-in`);
      await checkConsolePage(browser!, await page.content(), 'sign-in');
      await page.getByLabel('Username').fill('nobody');
      await page.getByLabel('Password').fill('wrong password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('not right');
      await checkConsolePage(browser!, await page.content(), 'sign-in refused');
      await context.close();
    },
    scaled(60_000),
  );
});
