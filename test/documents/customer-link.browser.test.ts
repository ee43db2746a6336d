import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { boughtPolicy, NOW } from '../policy-changes/support.js';
import { isPdf, pdfText } from './pdf-text.js';
import { accessValueOf } from './support.js';
import { scaled } from '../helpers/time-scale.js';

// Debian's Chromium; .ci/run installs it with apt when it is missing.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`customer-link browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)(`the customer's document link in a real browser (${DIALECT})`, () => {
  const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });
  let browser: Browser | undefined;
  let origin = '';

  beforeAll(async () => {
    const t = getApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
  });

  it(
    'opens the page, sees the documents and downloads valid PDFs with the policy number',
    async () => {
      const t = getApp();
      const { policyNumber, input } = await boughtPolicy(t);
      const value = await accessValueOf(t, policyNumber);
      const context = await browser!.newContext({ acceptDownloads: true });
      try {
        const page = await context.newPage();
        const answer = await page.goto(`${origin}/documents/v1/${value}`);
        expect(answer?.status()).toBe(200);
        expect(await page.locator('html').getAttribute('lang')).toBe('en');
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your policy documents');
        await expect.poll(() => page.textContent('body')).toContain(policyNumber);
        const links = page.getByRole('link');
        expect(await links.count()).toBe(1);
        expect(await links.first().textContent()).toBe(`certificate-${policyNumber}-1-en.pdf`);

        const [download] = await Promise.all([page.waitForEvent('download'), links.first().click()]);
        expect(download.suggestedFilename()).toBe(`certificate-${policyNumber}-1-en.pdf`);
        const path = await download.path();
        const { readFile } = await import('node:fs/promises');
        const bytes = new Uint8Array(await readFile(path));
        expect(isPdf(bytes)).toBe(true);
        const text = await pdfText(bytes);
        expect(text).toContain(policyNumber);
        for (const holder of input.policyHolders) expect(text).toContain(holder.firstName);

        const missing = await page.goto(`${origin}/documents/v1/${value.slice(0, -2)}xx`);
        expect(missing?.status()).toBe(404);
        expect(await page.textContent('h1')).toBe('Not found');
      } finally {
        await context.close();
      }
    },
    scaled(60_000),
  );
});
