import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { catalogueScreeningEngine } from '../helpers/screening-engine.js';
import { scaled } from '../helpers/time-scale.js';
import { fixturePorts, NOW } from '../quotes/fixtures.js';
import { linkOf, screenableQuote } from './link-support.js';
import { call } from './support.js';

// Debian's Chromium, launched as test/documents/customer-link.browser.test.ts does.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const PHONE = { width: 390, height: 844 };

describe.skipIf(!hasChromium)(`the hosted screening page in Chromium without JavaScript (${DIALECT})`, () => {
  const getApp = useTestApp({
    clock: () => NOW,
    appOptions: { quotePorts: fixturePorts(), screeningEngineFor: catalogueScreeningEngine },
  });
  let browser: Browser | undefined;
  let origin = '';
  // The partner's page the traveller returns to: a local server of the test.
  let partner: Server | undefined;
  let partnerOrigin = '';

  beforeAll(async () => {
    const t = getApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    partner = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!DOCTYPE html><html lang="en"><title>Partner</title><h1>Back at the partner</h1></html>');
    });
    await new Promise<void>((resolve) => partner!.listen(0, '127.0.0.1', resolve));
    partnerOrigin = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (partner ? partner.close(resolve) : resolve(undefined)));
  });

  /** What every step must be: each visible input labelled, no sideways scroll on a phone; its markup kept for axe. */
  async function checkStep(page: Page, seen: string[]): Promise<void> {
    // Expressions, not functions: the tests compile without the DOM's types.
    const unlabelled = await page.evaluate<string[]>(
      "[...document.querySelectorAll('input:not([type=hidden])')].filter((i) => !i.id || document.querySelectorAll('label[for=\"' + i.id + '\"]').length !== 1).map((i) => i.outerHTML)",
    );
    expect(unlabelled).toEqual([]);
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBe(0);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    seen.push(await page.content());
  }

  interface ApiScreening {
    status: string;
    result: {
      tamisReferenceNumber: string;
      outcome: string;
      medicalPremium: number;
      excess: number;
      conditions: { outcome: string }[];
    };
  }

  /**
   * The traveller's walk on a phone without JavaScript: who answers → gates (one YES, or all NO when
   * nothing is declared) → travel mode and `declared` → follow-ups NO → finish → result → back to the
   * partner. Answers the result page's text, the API's read of the screening, and the way back.
   */
  async function walkPage(declared: string | undefined, seen: string[]) {
    const t = getApp();
    const quoteId = await screenableQuote(t);
    const link = (await linkOf(t, quoteId, { returnUrl: `${partnerOrigin}/quote/back` })).json<{ url: string }>();
    const context = await browser!.newContext({ javaScriptEnabled: false, viewport: PHONE });
    try {
      const page = await context.newPage();
      const opened = await page.goto(`${origin}${new URL(link.url).pathname}`);
      expect(opened?.status()).toBe(200);
      await checkStep(page, seen);
      // Who answers: a person the traveller authorised.
      await page.getByLabel('I answer for the traveller, with their permission').check();
      await page.getByLabel('First name').fill('Alex');
      await page.getByLabel('Surname').fill('Canary');
      await page.getByLabel('Date of birth').fill('1984-01-02');
      await page.getByLabel('E-mail address').fill('alex@example.com');
      await page.getByLabel('Phone number').fill('+61 400 000 000');
      await page.getByRole('button', { name: 'Continue' }).click();
      await checkStep(page, seen);
      const gates = page.locator('input[name^="q:gate."][value="NO"]');
      for (let i = 0; i < (await gates.count()); i++) await gates.nth(i).check();
      if (declared) await page.locator('input[name^="q:gate."][value="YES"]').first().check();
      await page.getByRole('button', { name: 'Continue' }).click();
      if (declared) {
        // Travel mode and the declared condition; then follow-ups while any are asked.
        await checkStep(page, seen);
        await page.locator('input[name="q:travelMode"][value="AIR"]').check();
        await page.locator(`input[name="q:conditions"][value="${declared}"]`).check();
        await page.getByRole('button', { name: 'Continue' }).click();
        while ((await page.locator('input[name="step"][value="answers"]').count()) > 0) {
          const radios = page.locator('fieldset input[type=radio][value="NO"]');
          for (let i = 0; i < (await radios.count()); i++) await radios.nth(i).check();
          await page.getByRole('button', { name: 'Continue' }).click();
        }
      }
      await checkStep(page, seen);
      await page.getByRole('button', { name: 'Finish the screening' }).click();
      await checkStep(page, seen);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your screening result');
      const body = (await page.textContent('main')) ?? '';
      const api = (await call(t, quoteId, 'GET')).json<ApiScreening>();
      await page.getByRole('link', { name: 'Return to your quote' }).click();
      await page.waitForURL(`${partnerOrigin}/**`);
      const back = new URL(page.url());
      expect(back.pathname).toBe('/quote/back');
      // Only the quote, the traveller and the status go back: never a condition.
      expect(Object.fromEntries(back.searchParams)).toEqual({
        quoteId,
        travellerGuid: 'adult-1',
        screeningStatus: 'COMPLETED',
      });
      return { body, api };
    } finally {
      await context.close();
    }
  }

  it(
    'walks who answers → gate → TEST_COVERED → finish → result → back to the partner; the API reads the same result',
    async () => {
      const seen: string[] = [];
      const { body, api } = await walkPage('TEST_COVERED', seen);
      expect(body).toContain('Your conditions are covered.');
      expect(body).toMatch(/\$60\.00/);
      expect(body).toMatch(/\$100\.00/);
      expect([api.status, api.result.outcome, api.result.medicalPremium, api.result.excess]).toEqual([
        'COMPLETED',
        'COVERED',
        60,
        100,
      ]);
      expect(body).toContain(api.result.tamisReferenceNumber);
      // axe on each step's markup (in a page with JavaScript: axe is a script; the walk had none).
      const checker = await browser!.newPage({ viewport: PHONE });
      try {
        for (const markup of seen) {
          await checker.setContent(markup);
          await checker.evaluate(axe.source);
          const violations = await checker.evaluate<string[]>(
            "axe.run(document).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
          );
          expect(violations).toEqual([]);
        }
      } finally {
        await checker.close();
      }
    },
    scaled(120_000),
  );

  // Each outcome as the traveller reads it and as the API reads it (issue 30: a walk per outcome).
  it.each([
    [
      'TEST_EXCLUDED',
      'COVERED_WITH_EXCLUSIONS',
      'You are covered, except for the conditions marked not covered.',
      'EXCLUDED',
      'Not covered (excluded)',
    ],
    [
      'TEST_DECLINED',
      'COVERED_WITH_EXCLUSIONS',
      'You are covered, except for the conditions marked not covered.',
      'DECLINED',
      'Not covered (declined)',
    ],
    ['TEST_AUTO_COVERED', 'COVERED', 'Your conditions are covered.', 'AUTO_COVERED', 'Covered at no extra cost'],
    [
      'TEST_REFERRED',
      'REFERRED',
      'An underwriter must look at your answers before the policy can be bought.',
      'REFERRED',
      'Waiting for an underwriter',
    ],
    [
      'TEST_DECLINE_TRAVELLER',
      'DECLINED',
      'We cannot offer cover to this traveller.',
      'DECLINED',
      'Not covered (declined)',
    ],
  ])(
    '%s: the result page says %s in words, and the API reads the same',
    async (declared, travellerOutcome, travellerText, conditionOutcome, conditionText) => {
      const { body, api } = await walkPage(declared, []);
      expect(body).toContain(travellerText);
      expect(body).toContain(conditionText);
      expect(body).toContain(api.result.tamisReferenceNumber);
      expect([api.status, api.result.outcome, api.result.conditions.map((c) => c.outcome)]).toEqual([
        'COMPLETED',
        travellerOutcome,
        [conditionOutcome],
      ]);
      expect([api.result.medicalPremium, api.result.excess]).toEqual([0, 0]);
    },
    scaled(120_000),
  );

  it(
    'a traveller who declares nothing: standard cover, no condition listed',
    async () => {
      const { body, api } = await walkPage(undefined, []);
      expect(body).toContain('No screening needed: standard cover.');
      expect([api.status, api.result.outcome, api.result.conditions]).toEqual(['COMPLETED', 'NO_SCREENING_NEEDED', []]);
    },
    scaled(120_000),
  );
});
