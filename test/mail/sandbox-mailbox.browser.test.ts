import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueReaderFor } from '../../src/catalogue/reader.js';
import { deliveryDepsOf, policyEmailInputOf } from '../../src/documents/delivery.js';
import { documentLanguagesOf } from '../../src/documents/brand-facts.js';
import { composePolicyEmail } from '../../src/documents/mail/compose.js';
import { sandboxMailbox } from '../../src/documents/mail/transport.js';
import { policyOwnerOf } from '../../src/documents/repository.js';
import { isBrandCode, type BrandCode } from '../../src/kernel/brands.js';
import { findPolicy } from '../../src/policies/repository.js';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import { boughtPolicy, confirm, NOW, previewCancellation, type ChangeAnswer } from '../policy-changes/support.js';
import { workerOf } from '../documents/delivery-support.js';
import { emailInput } from './fixtures.js';

// Debian's Chromium; .ci/run installs it with apt when it is missing.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`sandbox mailbox browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

/** CI artefacts (README, "Tests"); .gitignore keeps them out of the repository. */
const SCREENSHOTS = 'artifacts/screenshots';
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/** A home address each brand sells to (the demo trip's is Australian). */
const HOME: Partial<Record<BrandCode, Record<string, unknown>>> = {
  brandnz: { homeAddress: { countryCode: 'NZL', addressLine1: '1 Queen St', postalCode: '1010' } },
  nomad: { homeAddress: { countryCode: 'GBR', addressLine1: '1 Strand', postalCode: 'WC2N 5HR' } },
};

interface KeptEmail {
  readonly id: number;
  readonly name: string;
  readonly subject: string;
  readonly language: string;
}

const newestMailId = async (t: TestApp) =>
  (await t.context.db.selectFrom('sandbox_mail').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;

/**
 * A purchase and its cancellation for `brand`, e-mailed by the delivery worker into the sandbox
 * mailbox in the brand's default language; for every other language the brand offers, the same
 * transactions' e-mails composed in it and kept beside them.
 */
async function emailsOf(t: TestApp, brand: BrandCode): Promise<KeptEmail[]> {
  const { policyNumber } = await boughtPolicy(t, { brand, ...(HOME[brand] ? { input: HOME[brand] } : {}) });
  const worker = workerOf(t);
  const kept: KeptEmail[] = [];
  const [language, ...others] = documentLanguagesOf(
    (await catalogueReaderFor(t.context.db).snapshot()).brands.get(brand)!,
  );
  const keep = async (kind: string) => {
    expect(await worker.runOnce()).toBe(1);
    const id = await newestMailId(t);
    const { subject } = await t.context.db
      .selectFrom('sandbox_mail')
      .select('subject')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    kept.push({ id, name: `${brand}-${language!}-${kind}`, subject, language: language! });
  };
  await keep('purchase');
  const preview = await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' }, brand);
  expect(preview.statusCode, preview.body).toBe(200);
  const cancelled = await confirm(t, policyNumber, 'cancellations', preview.json<ChangeAnswer>().id!, {
    key: `browser-cancel-${brand}`,
    brand,
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  await keep('cancellation');
  await worker.stop();

  const owner = await policyOwnerOf(t.context.db, policyNumber);
  const policy = (await findPolicy(t.context.db, { policyNumber, ...owner! }))!;
  const mailbox = sandboxMailbox(t.context.db, t.context.clock);
  for (const other of others) {
    for (const [kind, detail] of [
      ['purchase', policy.details[0]!],
      ['cancellation', policy.details[1]!],
    ] as const) {
      const messageKey = `browser:${policyNumber}:${String(detail.sequenceNumber)}:${other}`;
      const input = await policyEmailInputOf(deliveryDepsOf(t.context), policy, detail, {
        messageKey,
        to: 'ada@example.com',
        resend: false,
        language: other,
      });
      const message = composePolicyEmail(input);
      await mailbox.send(message);
      kept.push({
        id: await newestMailId(t),
        name: `${brand}-${other}-${kind}`,
        subject: message.subject,
        language: other,
      });
    }
  }
  return kept;
}

/** axe-core's violations in the page's own document (not its frames), as `rule: targets` lines for a readable failure. */
async function violationsIn(frame: Page): Promise<string[]> {
  await frame.evaluate(axe.source);
  const results = await frame.evaluate<axe.AxeResults>('axe.run(document, { iframes: false })');
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.skipIf(!hasChromium)(`the sandbox mailbox's HTML e-mails in a real browser (${DIALECT})`, () => {
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
    await mkdir(SCREENSHOTS, { recursive: true });
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
  });

  it(
    'shows each brand’s purchase and cancellation e-mail, in each language it offers, with no axe violations',
    async () => {
      const t = getApp();
      const brands = [...(await catalogueReaderFor(t.context.db).snapshot()).brands.keys()].filter(isBrandCode).sort();
      expect(brands).toEqual(['brandau', 'brandnz', 'directau', 'nomad']);
      const emails: KeptEmail[] = [];
      for (const brand of brands) {
        emails.push(...(await emailsOf(t, brand)));
      }
      expect(emails.map((e) => e.name)).toContain('nomad-es-cancellation');
      expect(emails).toHaveLength(2 * (brands.length + 1));

      const context = await browser!.newContext();
      try {
        const page = await context.newPage();
        // axe needs scripts, which the mailbox's frame never runs: the HTML part is also opened
        // in a page of its own, as a mail client renders it.
        const alone = await context.newPage();
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize(viewport);
          expect((await page.goto(`${origin}/sandbox/mail`))?.status()).toBe(200);
          expect(await page.getByRole('link').count()).toBe(emails.length);
          expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
          expect(await violationsIn(page), 'mailbox list').toEqual([]);
          const size = `${String(viewport.width)}x${String(viewport.height)}`;
          await page.screenshot({ path: `${SCREENSHOTS}/mailbox-list-${size}.png`, fullPage: true });
        }
        for (const email of emails) {
          const url = `${origin}/sandbox/mail/${String(email.id)}`;
          const html = await (await context.request.get(`${url}/html`)).text();
          for (const viewport of VIEWPORTS) {
            const size = `${String(viewport.width)}x${String(viewport.height)}`;
            await page.setViewportSize(viewport);
            expect((await page.goto(url))?.status()).toBe(200);
            const part = page.frameLocator('iframe[sandbox]');
            await expect.poll(() => part.locator('h1').textContent()).toBe(email.subject);
            expect(await part.locator('html').getAttribute('lang')).toBe(email.language);
            // One column that fits: the e-mail's card is no wider than the frame that shows it.
            const frame = await page.locator('iframe[sandbox]').boundingBox();
            const card = await part.locator('main').boundingBox();
            expect(frame && card && card.x >= frame.x && card.x + card.width <= frame.x + frame.width).toBe(true);
            expect(await violationsIn(page), `${email.name} mailbox page`).toEqual([]);
            await page.screenshot({ path: `${SCREENSHOTS}/mail-${email.name}-${size}.png`, fullPage: true });

            await alone.setViewportSize(viewport);
            await alone.setContent(html);
            expect(await alone.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
            expect(await violationsIn(alone), `${email.name} HTML part`).toEqual([]);
            await alone.screenshot({ path: `${SCREENSHOTS}/mail-${email.name}-html-${size}.png`, fullPage: true });
          }
        }
      } finally {
        await context.close();
      }
    },
    scaled(240_000),
  );

  it(
    'runs no script of a kept HTML part: the frame is sandboxed and its route forbids scripts',
    async () => {
      const t = getApp();
      const message = composePolicyEmail(emailInput({ messageKey: 'browser:script' }));
      const html =
        '<!doctype html><html lang="en"><head><title>x</title></head><body><main><h1>static</h1></main>' +
        "<script>document.querySelector('h1').textContent = 'ran'</script></body></html>";
      await sandboxMailbox(t.context.db, t.context.clock).send({ ...message, html });
      const id = await newestMailId(t);
      const context = await browser!.newContext();
      try {
        const page = await context.newPage();
        for (const url of [`${origin}/sandbox/mail/${String(id)}`, `${origin}/sandbox/mail/${String(id)}/html`]) {
          expect((await page.goto(url))?.status()).toBe(200);
          const root = url.endsWith('/html')
            ? page.locator('html')
            : page.frameLocator('iframe[sandbox]').locator('html');
          await expect.poll(() => root.locator('h1').textContent()).toBe('static');
        }
      } finally {
        await context.close();
      }
    },
    scaled(60_000),
  );
});
