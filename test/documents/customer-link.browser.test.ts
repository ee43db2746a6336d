import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../src/catalogue/compile.js';
import type { BrandCode } from '../../src/kernel/brands.js';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import { boughtPolicy, detailedTrip, NOW, quoteInDetails } from '../policy-changes/support.js';
import { CARDS, planOf, purchase, purchaseBody, type PurchaseAnswer } from '../purchases/support.js';
import { isPdf, pdfText } from './pdf-text.js';
import { accessValueOf } from './support.js';

// Debian's Chromium; .ci/run installs it with apt when it is missing.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`customer-link browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

/** CI artefacts (gitignored): each page at a phone's and a laptop's size. */
const SCREENSHOTS = 'artifacts/screenshots';
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/** A trip each brand sells (its home country), beside the demo trip's travellers. */
const TRIPS: Record<BrandCode, Record<string, unknown>> = {
  brandau: {},
  directau: {},
  brandnz: {
    homeAddress: { countryCode: 'NZL', provinceCode: 'AUK', addressLine1: '1 Queen St', postalCode: '1010' },
  },
  nomad: {
    homeAddress: { countryCode: 'USA', provinceCode: 'CA', addressLine1: '1 Main St', postalCode: '94103' },
    destinationCountryCodes: ['MEX'],
  },
};

let now = NOW;

describe.skipIf(!hasChromium)(`the traveller's pages in a real browser (${DIALECT})`, () => {
  const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });
  let browser: Browser | undefined;
  let origin = '';
  const languages = new Map<BrandCode, string[]>();

  beforeAll(async () => {
    const t = getApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    mkdirSync(SCREENSHOTS, { recursive: true });
    const { catalogue } = await validateCatalogue('catalogue');
    for (const { brandCode, brand } of catalogue!.brands)
      languages.set(brandCode, [
        brand.defaultLanguage,
        ...Object.keys(brand.languages).filter((l) => l !== brand.defaultLanguage),
      ]);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens `url` and checks what every page must: its status, no CSP refusal, its style applied, no axe violation; then screenshots. */
  async function visit(page: Page, url: string, status: number, name: string): Promise<void> {
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const answer = await page.goto(url);
    expect(answer?.status(), name).toBe(status);
    await checkRendered(page, name);
    expect(refused, name).toEqual([]);
  }

  async function checkRendered(page: Page, name: string): Promise<void> {
    // The hashed style applied: the header has the look's colour, not the browser's default.
    const header = await page.evaluate<string>("getComputedStyle(document.querySelector('header')).backgroundColor");
    expect(header, name).not.toBe('rgba(0, 0, 0, 0)');
    await page.evaluate(axe.source);
    // Expressions, not functions: the tests compile without the DOM's types.
    const violations = await page.evaluate<string[]>(
      "axe.run(document).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
    );
    expect(violations, name).toEqual([]);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SCREENSHOTS}/${name}-${size.width}x${size.height}.png`, fullPage: true });
    }
    // A phone's width never scrolls sideways.
    await page.setViewportSize(SIZES[0]);
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow, name).toBe(0);
  }

  /** A purchase of `brand` waiting for its challenge, from the partner page `returnTo`. */
  async function challengeOf(t: TestApp, brand: BrandCode, returnTo: string): Promise<string> {
    const plan = await planOf(t, brand, 'COMP');
    const quote = await quoteInDetails(t, brand, { ...detailedTrip(plan.planId), ...TRIPS[brand] }, plan.termIds);
    const body = purchaseBody(quote, CARDS.threeDsChallenge, { threeDSRequestInfo: { origin: returnTo } });
    const answer = (await purchase(t, body, { brand })).json<PurchaseAnswer>();
    expect(answer.paymentResult).toBe('THREEDS_CHALLENGE_REQUIRED');
    return new URL(answer.threeDSResponseInfo!.threeDSResponse!).pathname;
  }

  for (const brand of Object.keys(TRIPS) as BrandCode[]) {
    it(
      `${brand}: the document page, its 404 and expired pages in each language, the 3-D Secure pages`,
      async () => {
        const t = getApp();
        const { policyNumber } = await boughtPolicy(t, { brand, input: TRIPS[brand] });
        const value = await accessValueOf(t, policyNumber, brand);
        const context = await browser!.newContext({ acceptDownloads: true });
        try {
          const page = await context.newPage();
          for (const lang of languages.get(brand)!) {
            await visit(page, `${origin}/documents/v1/${value}?lang=${lang}`, 200, `${brand}-${lang}-documents`);
            expect(await page.locator('html').getAttribute('lang')).toBe(lang);
            await expect.poll(() => page.textContent('body')).toContain(policyNumber);
            await visit(
              page,
              `${origin}/documents/v1/${value.slice(0, -2)}xx?lang=${lang}`,
              404,
              `${brand}-${lang}-not-found`,
            );
            now = new Date('2027-06-01T00:00:00Z');
            try {
              await visit(page, `${origin}/documents/v1/${value}?lang=${lang}`, 410, `${brand}-${lang}-expired`);
            } finally {
              now = NOW;
            }
          }

          const challenge = await challengeOf(t, brand, 'https://shop.partner.example/checkout');
          await visit(page, `${origin}${challenge}`, 200, `${brand}-3ds-challenge`);
          expect(await page.locator('[data-merchant]').textContent()).not.toBe('the merchant');
          await Promise.all([
            page.waitForURL(`${origin}${challenge}`),
            page.getByRole('button', { name: 'Approve' }).click(),
          ]);
          await checkRendered(page, `${brand}-3ds-approved`);
          const back = await page.getByRole('link', { name: /^Return to / }).getAttribute('href');
          expect(back).toMatch(
            /^https:\/\/shop\.partner\.example\/checkout\?threeDSRequest=sbx_3ds_.+&threeDSStatus=CHALLENGE_COMPLETED$/,
          );
          await visit(page, `${origin}/sandbox/3ds/sbx_3ds_AAAAAAAAAAAAAAAA`, 404, `${brand}-3ds-not-found`);
        } finally {
          await context.close();
        }
      },
      scaled(120_000),
    );
  }

  it(
    'downloads valid PDFs with the policy number from the page',
    async () => {
      const t = getApp();
      const { policyNumber, input } = await boughtPolicy(t);
      const value = await accessValueOf(t, policyNumber);
      const context = await browser!.newContext({ acceptDownloads: true });
      try {
        const page = await context.newPage();
        await page.goto(`${origin}/documents/v1/${value}`);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your policy documents');
        const link = page.getByRole('link', { name: 'Certificate of insurance (English)' });
        const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
        expect(download.suggestedFilename()).toBe(`certificate-${policyNumber}-1-en.pdf`);
        const bytes = new Uint8Array(await readFile(await download.path()));
        expect(isPdf(bytes)).toBe(true);
        const text = await pdfText(bytes);
        expect(text).toContain(policyNumber);
        for (const holder of input.policyHolders) expect(text).toContain(holder.firstName);
      } finally {
        await context.close();
      }
    },
    scaled(60_000),
  );
});
