import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLICY_DOCUMENTS } from '../../src/documents/messages.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { checkConsolePage, hasChromium, launchChromium, listen, operatorTab } from '../helpers/console-browser.js';
import { DIALECT } from '../helpers/database.js';
import { startSmtpServer } from '../helpers/smtp-server.js';
import { scaled } from '../helpers/time-scale.js';
import { workerOf } from '../documents/delivery-support.js';
import { boughtPolicy } from '../policy-changes/support.js';
import { attentionChange } from '../work-queues/support.js';

// Issue 31, "Done when": in Chromium, support adds a note that the partner sees in /details,
// resolves a change left in ATTENTION, and retries a failed e-mail (which then reaches a real SMTP
// receiver). No JavaScript in the operator's tab.
describe.skipIf(!hasChromium)(`support's walk in Chromium (${DIALECT})`, () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let browser: Browser | undefined;
  let origin = '';

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({ env: { DEMO_DATA: 'true', SMTP_URL: smtp.url } });
    origin = await listen(t);
    browser = await launchChromium();
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
    await t.close();
    await smtp.close();
  });

  const seen = new Map<string, string>();
  async function visit(page: Page, name: string, link: string | RegExp): Promise<void> {
    await page.getByRole('link', { name: link }).first().click();
    await page.waitForLoadState();
    seen.set(name, await page.content());
  }

  it(
    'adds a note the partner reads, resolves an ATTENTION change, retries a failed e-mail',
    async () => {
      const { policyNumber } = await boughtPolicy(t);
      const stuck = await attentionChange(t);
      // The purchase's e-mail failed after its last attempt (the SMTP receiver was away).
      await t.context.db
        .updateTable('outbox_message')
        .set({ state: 'FAILED', attempts: 5, last_error: 'MailSendFailed ECONNREFUSED' })
        .where('kind', '=', POLICY_DOCUMENTS)
        .execute();
      const page = await operatorTab(browser!, t, origin, 'SUPPORT');

      // A note on the policy, read by the partner in /details.
      await visit(page, 'policy search', 'Policies');
      await page.getByLabel('Search for').fill(policyNumber);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForLoadState();
      seen.set('policy results', await page.content());
      await visit(page, 'policy', policyNumber);
      await page.getByLabel('Note', { exact: true }).fill('Customer called: travelling with a guide dog.');
      await page.getByRole('button', { name: 'Add the note' }).click();
      await page.waitForLoadState();
      seen.set('policy with a note', await page.content());
      const details = await t.app.inject({
        method: 'GET',
        url: `/policies/v1/brandau/policies/${policyNumber}/details`,
        headers: await bearerFor(t, 'brandau', 'A'),
      });
      const notes = details.json<{ notes?: { noteText: string; userId: number }[] }[]>().flatMap((d) => d.notes ?? []);
      expect(notes.map((n) => n.noteText)).toContain('Customer called: travelling with a guide dog.');

      // The change in ATTENTION, resolved with a reason.
      await visit(page, 'work queues', 'Work queues');
      await visit(page, 'attention', /attention/i);
      expect(await page.content()).toContain(stuck.id);
      await page.getByLabel('Reason').first().fill('Refunded by bank transfer, ref 7781');
      await page
        .getByRole('button', { name: /Resolve/ })
        .first()
        .click();
      await page.waitForLoadState();
      seen.set('attention resolved', await page.content());
      expect(await page.content()).not.toContain(`/${stuck.id}/resolve`);
      const change = await t.context.db
        .selectFrom('policy_change')
        .select('state')
        .where('public_id', '=', stuck.id)
        .executeTakeFirstOrThrow();
      expect(change.state).toBe('RESOLVED');

      // The failed e-mail, retried: the next worker pass delivers it.
      await visit(page, 'work queues again', 'Work queues');
      await visit(page, 'deliveries', /deliver/i);
      await page.getByRole('button', { name: 'Retry now' }).first().click();
      await page.waitForLoadState();
      seen.set('deliveries retried', await page.content());
      const worker = workerOf(t);
      await worker.runOnce();
      await worker.stop();
      expect(smtp.received.length).toBeGreaterThan(0);

      await visit(page, 'audit trail', 'Audit trail');
      const trail = await page.content();
      for (const action of ['note.add', 'change.resolve', 'delivery.retry']) expect(trail).toContain(action);
      for (const [name, markup] of seen) await checkConsolePage(browser!, markup, name);
    },
    scaled(120_000),
  );
});
