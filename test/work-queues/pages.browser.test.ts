import axe from 'axe-core';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveChange } from '../../src/work-queues/actions.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import { NOW } from '../policy-changes/support.js';
import { pageHarness } from './page-harness.js';
import { attentionChange, failedEmail, goneEndpoint, OPERATORS, partnerUser } from './support.js';

// Debian's Chromium, launched as test/screening/hosted-page.browser.test.ts does.
const CHROMIUM = '/usr/bin/chromium';
const PHONE = { width: 360, height: 740 };

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });
let pages: FastifyInstance | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  pages = await pageHarness(getApp());
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}, scaled(60_000));
afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

describe(`work queue pages in a browser (${DIALECT})`, () => {
  it(
    'every page, with an item in it: no axe violation, labelled fields, no sideways scroll on a phone',
    async () => {
      const t = getApp();
      await attentionChange(t);
      const resolved = await attentionChange(t);
      await resolveChange(t.context, OPERATORS.SUPPORT, resolved.id, 'Refunded by hand <b>now</b>');
      await failedEmail(t, 'policy-documents:AXE0000001:1');
      const { partnerId } = await partnerUser(t);
      await goneEndpoint(t, 'http://127.0.0.1:9/hooks/a-rather-long-path/that-should-wrap/on-a-phone-screen');
      const urls = [
        '/console/work',
        '/console/work/attention',
        '/console/work/deliveries',
        '/console/work/partners',
        `/console/work/partners/${partnerId}`,
        '/console/work/webhook-endpoints',
        '/console/audit',
      ];
      const page = await browser!.newPage({ viewport: PHONE });
      try {
        for (const url of urls) {
          const res = await pages!.inject({ method: 'GET', url, headers: { 'x-test-role': 'SUPPORT' } });
          expect(res.statusCode, url).toBe(200);
          await page.setContent(res.body);
          const unlabelled = await page.evaluate<string[]>(
            "[...document.querySelectorAll('input:not([type=hidden])')].filter((i) => !i.id || document.querySelectorAll('label[for=\"' + i.id + '\"]').length !== 1).map((i) => i.outerHTML)",
          );
          expect(unlabelled, url).toEqual([]);
          const overflow = await page.evaluate<number>(
            'document.documentElement.scrollWidth - document.documentElement.clientWidth',
          );
          expect(overflow, url).toBeLessThanOrEqual(0);
          await page.evaluate(axe.source);
          const violations = await page.evaluate<string[]>(
            "axe.run(document).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))",
          );
          expect(violations, url).toEqual([]);
        }
      } finally {
        await page.close();
      }
    },
    scaled(120_000),
  );
});
