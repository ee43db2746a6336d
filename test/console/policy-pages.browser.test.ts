import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { ensureOperator, operatorLogin, operatorPassword } from '../helpers/console.js';
import { hasChromium, launchChromium, listen } from '../helpers/console-browser.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import { issue, issueRequest, testPartnerId } from '../policies/fixtures.js';

// Issue 31: the policy search and policy page in a real browser, checked by axe (labels, table
// headers, headings, contrast), with the page kit's CSP (no refusal) and no script.
describe.skipIf(!hasChromium)(`console policy pages in a browser (${DIALECT})`, () => {
  const getApp = useTestApp();
  let browser: Browser | undefined;
  let origin = '';
  let policyNumber = '';

  beforeAll(async () => {
    const t = getApp();
    origin = await listen(t);
    const partnerId = await testPartnerId(t, 'brandau', 'A');
    policyNumber = (await issue(t.context.db, issueRequest({ partnerId, bookingReference: 'BK-BROWSER' })))
      .policyNumber;
    await ensureOperator(t, 'UNDERWRITER');
    browser = await launchChromium();
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
  });

  async function checked(page: Page, name: string): Promise<void> {
    await page.evaluate(axe.source);
    const violations = await page.evaluate<string[]>(
      "axe.run(document).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
    );
    expect(violations, name).toEqual([]);
  }

  it(
    'signs in, searches, opens the policy and adds a note, every page passing axe',
    async () => {
      const context = await browser!.newContext();
      try {
        const page = await context.newPage();
        const refused: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
        });
        await page.goto(`${origin}/console/sign-in`);
        await page.fill('#username', operatorLogin('UNDERWRITER'));
        await page.fill('#password', operatorPassword('UNDERWRITER'));
        await page.click('button[type=submit]');
        await page.goto(`${origin}/console/policies`);
        await checked(page, 'search form');
        await page.selectOption('#by', 'bookingReference');
        await page.fill('#q', 'BK-BROWSER');
        await page.click('form[role=search] button[type=submit]');
        expect(page.url()).toContain('by=bookingReference');
        await checked(page, 'search results');
        await page.click(`a[href="/console/policies/${policyNumber}"]`);
        expect(await page.textContent('h1')).toBe(`Policy ${policyNumber}`);
        await checked(page, 'policy page');
        await page.fill('#note-text', 'Checked in a browser.');
        await page.click('section[aria-labelledby=add-note] button[type=submit]');
        expect(page.url()).toContain(`/console/policies/${policyNumber}#transaction-1`);
        expect(await page.textContent('body')).toContain('Checked in a browser.');
        await checked(page, 'policy page with a note');
        expect(refused).toEqual([]);
      } finally {
        await context.close();
      }
    },
    scaled(60_000),
  );
});
