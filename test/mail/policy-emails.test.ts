import type { ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import {
  boughtPolicy,
  CARDS,
  confirm,
  details,
  NOW,
  previewAmendment,
  previewCancellation,
  summary,
  type ChangeAnswer,
} from '../policy-changes/support.js';
import { useMailingApp, workerOf, type startSmtpServer } from '../documents/delivery-support.js';

/** `AUD 1,234.50`: how an English e-mail writes an amount (a no-break space read as a space). */
const aud = (major: number) =>
  `AUD ${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(major)}`;
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

/** The files the text part says are attached: the lines under its "Attached to this e-mail" heading. */
function namedInText(text: string): { heading: string; files: string[] } {
  const lines = plain(text).split('\n');
  const at = lines.findIndex((l) => l.startsWith('Attached to this e-mail'));
  if (at < 0) return { heading: '', files: [] };
  const items = lines.slice(at + 1, lines.indexOf('', at));
  return { heading: lines[at]!, files: items.map((l) => /^- .+ \(([^()]+)\)$/.exec(l)?.[1] ?? `unreadable: ${l}`) };
}

/** The files the HTML part lists, in order. */
const namedInHtml = (html: string) => [...html.matchAll(/<li>[^<]* \(([^()<]+)\)<\/li>/g)].map((m) => m[1]);

/** Both parts present, and every attachment named by both, exactly: no more, no fewer. */
function expectAttachmentsAsSaid(mail: ParsedMail, names: string[]): void {
  expect(mail.text?.length).toBeGreaterThan(0);
  expect(typeof mail.html === 'string' && mail.html.startsWith('<!doctype html>')).toBe(true);
  const attached = mail.attachments.map((a) => a.filename);
  expect(attached).toEqual(names);
  expect(mail.attachments.every((a) => a.contentType === 'application/pdf' && a.content.length > 0)).toBe(true);
  const { heading, files } = namedInText(mail.text ?? '');
  expect(files).toEqual(attached);
  expect(heading).toBe(
    attached.length === 1 ? 'Attached to this e-mail:' : `Attached to this e-mail (${attached.length}):`,
  );
  expect(namedInHtml(mail.html as string)).toEqual(attached);
}

describe(`the policy e-mail of each transaction kind, parsed as received (${DIALECT})`, () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;

  useMailingApp(NOW, (app, receiver) => {
    t = app;
    smtp = receiver;
  });

  it('purchase, amendment, cancellation and resend each say what happened, with what is really attached', async () => {
    smtp.received.length = 0;
    const { policyNumber, input } = await boughtPolicy(t);
    const header = await t.context.db
      .selectFrom('policy_header')
      .select(['policy_document_access_guid', 'presentation_time_zone_code'])
      .where('policy_number', '=', policyNumber)
      .executeTakeFirstOrThrow();
    const link = `https://api.example/documents/v1/${header.policy_document_access_guid}`;
    const zone = header.presentation_time_zone_code;
    expect(zone).toBe('Australia/Sydney');
    const worker = workerOf(t);
    const next = async (): Promise<ParsedMail> => {
      const before = smtp.received.length;
      expect(await worker.runOnce()).toBe(1);
      expect(smtp.received).toHaveLength(before + 1);
      return smtp.received[before]!.mail;
    };
    const expectCommon = (mail: ParsedMail) => {
      const text = plain(mail.text ?? '');
      expect(text).toContain('Travellers: Ada Lovelace, Charles Babbage, Byron Lovelace\n');
      expect(text).toContain('In an emergency: +61 2 8000 1000 (24 hours');
      expect(text).toContain(`\n${link}\n`);
      expect(mail.html).toContain(`<a href="${link}"`);
      expect(mail.html).toContain('href="tel:+61280001000"');
      expect(text).not.toMatch(/\b(?:\d[ -]?){13,19}\b/); // no card number, ever
    };
    const amounts = async () => (await details(t, policyNumber)).map((d) => d.financialSummary.transactionAmount);

    // The purchase: confirmed, paid, the certificate and the PDS.
    const bought = await next();
    expect(bought.subject).toBe(`Your travel insurance policy ${policyNumber} is confirmed`);
    expect(plain(bought.text ?? '')).toContain(
      `Trip dates: 10 December 2026 to 23 December 2026 (${zone} time)\nTravellers:`,
    );
    const [paid] = await amounts();
    expect(paid).toBeGreaterThan(0);
    expect(plain(bought.text ?? '')).toContain(`Amount paid: ${aud(paid!)}\n`);
    expectCommon(bought);
    const pds = bought.attachments[1]?.filename ?? '';
    expect(pds).toMatch(/\.pdf$/);
    expectAttachmentsAsSaid(bought, [`certificate-${policyNumber}-1-en.pdf`, pds]);
    expect(bought.text).toContain('Your certificate of insurance and the Product Disclosure Statement are attached.');

    // An amendment that lengthens the trip: changed, the difference paid, the new certificate.
    const amendment = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-30' })
    ).json<ChangeAnswer>();
    const amended = await confirm(t, policyNumber, 'amendments', amendment.id!, {
      key: 'emails-amend-1',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(amended.statusCode, amended.body).toBe(200);
    const changed = await next();
    expect(changed.subject).toBe(`Your travel insurance policy ${policyNumber} has been changed`);
    expect(plain(changed.text ?? '')).toContain(`Trip dates: 10 December 2026 to 30 December 2026 (${zone} time)\n`);
    const difference = (await amounts())[1]!;
    expect(difference).toBeGreaterThan(0);
    expect(plain(changed.text ?? '')).toContain(`Amount paid: ${aud(difference)}\n`);
    expectCommon(changed);
    expectAttachmentsAsSaid(changed, [`certificate-${policyNumber}-2-en.pdf`, pds]);

    // A cancellation: cancelled on its day in the policy's zone, a refund as a positive amount, the notice alone.
    const preview = await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' });
    expect(preview.statusCode, preview.body).toBe(200);
    const cancelled = await confirm(t, policyNumber, 'cancellations', preview.json<ChangeAnswer>().id!, {
      key: 'emails-cancel-1',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const notice = await next();
    expect(notice.subject).toBe(`Your travel insurance policy ${policyNumber} has been cancelled`);
    const refund = (await amounts())[2]!;
    expect(refund).toBeLessThan(0);
    const noticeText = plain(notice.text ?? '');
    expect(noticeText).toContain(`Amount refunded: ${aud(-refund)}\n`);
    // NOW is 11:00 on 22 November in Sydney.
    expect(noticeText).toContain('Cancelled on: 22 November 2026\n');
    expectCommon(notice);
    expectAttachmentsAsSaid(notice, [`cancellation-notice-${policyNumber}-3-en.pdf`]);
    // Nothing else claims an attachment: no certificate, no PDS.
    expect(noticeText.match(/attached/gi)).toHaveLength(1);
    expect(noticeText).not.toMatch(/certificate|disclosure/i);

    // A resend: the documents again, told as such, with the policy's total paid after the refund.
    const resent = await t.app.inject({
      method: 'POST',
      url: `/policies/v1/brandau/policies/${policyNumber}/documents/send`,
      headers: await bearerFor(t, 'brandau', 'A'),
    });
    expect(resent.statusCode, resent.body).toBe(202);
    const again = await next();
    expect(again.subject).toBe(`Your documents for policy ${policyNumber}`);
    const againText = plain(again.text ?? '');
    expect(againText).toContain('As requested, here are the documents of your policy');
    expect(againText).toContain('This policy has been cancelled.');
    const total = (await summary(t, policyNumber)).transactionValueAggregateAmount.amount;
    expect(againText).toContain(`Total paid for this policy: ${aud(total)}\n`);
    expectCommon(again);
    expectAttachmentsAsSaid(again, [`cancellation-notice-${policyNumber}-3-en.pdf`]);
    await worker.stop();
  });
});
