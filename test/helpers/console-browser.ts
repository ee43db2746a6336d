import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { ensureOperator, operatorLogin, operatorPassword } from './console.js';
import type { OperatorRole } from '../../src/operators/model.js';

/** Debian's Chromium (`apt-get install chromium`); browser tests skip without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const PHONE = { width: 390, height: 844 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** The app listening on a free loopback port; answers its origin. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${String((t.app.server.address() as AddressInfo).port)}`;
}

/** An operator's browser tab without JavaScript (the console needs none), signed in through the form. */
export async function operatorTab(browser: Browser, t: TestApp, origin: string, role: OperatorRole): Promise<Page> {
  await ensureOperator(t, role);
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await page.goto(`${origin}/console/sign-in`);
  await page.getByLabel('Username').fill(operatorLogin(role));
  await page.getByLabel('Password').fill(operatorPassword(role));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/console`);
  return page;
}

/**
 * What every console page must be: each visible field labelled, nothing wider than a phone, and no
 * axe-core violation (axe runs on the page's markup in a tab with JavaScript: the console has none).
 */
export async function checkConsolePage(browser: Browser, markup: string, name: string): Promise<void> {
  const checker = await browser.newPage({ viewport: PHONE });
  try {
    await checker.setContent(markup);
    const unlabelled = await checker.evaluate<string[]>(
      "[...document.querySelectorAll('input:not([type=hidden]),select,textarea')].filter((i) => !i.id || document.querySelectorAll('label[for=\"' + i.id + '\"]').length !== 1).map((i) => i.outerHTML)",
    );
    expect(unlabelled, name).toEqual([]);
    const overflow = await checker.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow, name).toBe(0);
    await checker.evaluate(axe.source);
    const violations = await checker.evaluate<string[]>(
      "axe.run(document).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
    );
    expect(violations, name).toEqual([]);
  } finally {
    await checker.close();
  }
}
