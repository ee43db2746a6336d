import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import {
  boughtPolicy,
  CARDS,
  confirm,
  NOW,
  previewAmendment,
  summary,
  type ChangeAnswer,
} from '../policy-changes/support.js';
import { purchase, purchaseBody, readyQuote, type PurchaseAnswer } from '../purchases/support.js';
import { isPdf, pdfText } from './pdf-text.js';
import { outboxKeys, useMailingApp, workerOf, type startSmtpServer } from './delivery-support.js';

const money = (amount: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);

describe(`policy documents e-mailed through the outbox (${DIALECT})`, () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;

  useMailingApp(NOW, (app, receiver) => {
    t = app;
    smtp = receiver;
  });

  it('sends the certificate and the PDS after the purchase, then sequence 2 after an amendment', async () => {
    smtp.received.length = 0;
    const { policyNumber, input } = await boughtPolicy(t);
    const worker = workerOf(t);
    expect(await worker.runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const [{ envelopeTo, mail }] = smtp.received as [(typeof smtp.received)[number]];
    expect(envelopeTo).toEqual(['ada@example.com']);
    expect(mail.from?.value).toEqual([{ name: 'Brand Australia Travel Insurance', address: 'travel@brandau.example' }]);
    expect(mail.replyTo?.value).toEqual(mail.from?.value);
    expect(mail.messageId).toMatch(/^<policy-documents=3A[0-9a-f-]+=3A1@brandau\.example>$/);
    expect(mail.subject).toContain(policyNumber);
    const guid = (
      await t.context.db
        .selectFrom('policy_header')
        .select('policy_document_access_guid')
        .where('policy_number', '=', policyNumber)
        .executeTakeFirstOrThrow()
    ).policy_document_access_guid;
    expect(mail.text).toContain(`https://api.example/documents/v1/${guid}`);

    const [certificate, pds, ...more] = mail.attachments;
    expect(more).toEqual([]);
    expect(certificate?.contentType).toBe('application/pdf');
    expect(certificate?.filename).toBe(`certificate-${policyNumber}-1-en.pdf`);
    expect(pds?.contentType).toBe('application/pdf');
    expect(isPdf(certificate!.content) && isPdf(pds!.content)).toBe(true);
    const text = await pdfText(certificate!.content);
    expect(text).toContain(policyNumber);
    for (const holder of input.policyHolders) expect(text).toContain(holder.firstName);
    const paid = (await summary(t, policyNumber)).transactionValueAggregateAmount.amount;
    expect(text).toContain(money(paid));
    expect(await pdfText(pds!.content)).toMatch(/PDS|Product Disclosure|Plans/);

    // Nothing left: a second pass sends nothing again.
    expect(await worker.runOnce()).toBe(0);

    const amendment = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-30' })
    ).json<ChangeAnswer>();
    const amended = await confirm(t, policyNumber, 'amendments', amendment.id!, {
      key: 'delivery-amend-1',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(amended.statusCode, amended.body).toBe(200);
    expect(await worker.runOnce()).toBe(1);
    const second = smtp.received[1]!.mail;
    expect(second.messageId).toBe(`<policy-documents=3A${policyNumber}=3A2@brandau.example>`);
    expect(second.attachments[0]?.filename).toBe(`certificate-${policyNumber}-2-en.pdf`);
    expect(await pdfText(second.attachments[0]!.content)).toContain('2026-12-30');
    await worker.stop();
  });

  it('resends on request (202) to another address, under a new key', async () => {
    smtp.received.length = 0;
    const { policyNumber } = await boughtPolicy(t);
    const worker = workerOf(t);
    await worker.runOnce();
    smtp.received.length = 0;
    const headers = await bearer(t);
    const url = `/policies/v1/brandau/policies/${policyNumber}/documents/send`;
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers,
      payload: { emailAddress: 'agent@partner.example' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const answer = res.json<{ messageKey: string; status: string }>();
    expect(answer.status).toBe('QUEUED');
    expect(answer.messageKey).toMatch(new RegExp(`^policy-documents:${policyNumber}:1:resend:[0-9a-f-]{36}$`));
    expect(await worker.runOnce()).toBe(1);
    expect(smtp.received.map((r) => r.envelopeTo)).toEqual([['agent@partner.example']]);

    // Without a body: to the holder; a bad address is refused; another partner's policy is not found.
    const plain = await t.app.inject({ method: 'POST', url, headers });
    expect(plain.statusCode, plain.body).toBe(202);
    expect(await worker.runOnce()).toBe(1);
    expect(smtp.received[1]?.envelopeTo).toEqual(['ada@example.com']);
    const bad = await t.app.inject({ method: 'POST', url, headers, payload: { emailAddress: 'not an address' } });
    expect(bad.statusCode).toBe(400);
    const other = await t.app.inject({ method: 'POST', url, headers: await bearer(t, 'B'), payload: {} });
    expect(other.statusCode).toBe(404);
    await worker.stop();
  });

  it('enqueues in the purchase commit: a declined card leaves no message; no e-mail address sends nothing', async () => {
    const before = await outboxKeys(t);
    const quote = await readyQuote(t);
    const declined = await purchase(t, purchaseBody(quote, CARDS.declined));
    expect(declined.json<PurchaseAnswer>().quote.policyNumber).toBeUndefined();
    expect(await outboxKeys(t)).toEqual(before);

    smtp.received.length = 0;
    // The DETAILS stage asks for the primary's e-mail; a policy without one (e.g. issued before that
    // rule, or cleared by an operator) is told by the worker: nothing to send, the message completes.
    const { policyNumber } = await boughtPolicy(t);
    const header = t.context.db.selectFrom('policy_header').select('id').where('policy_number', '=', policyNumber);
    await t.context.db
      .updateTable('policy_traveller')
      .set({ email_address: null })
      .where('policy_header_id', '=', header)
      .execute();
    const worker = workerOf(t);
    expect(await worker.runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(0);
    expect((await outboxKeys(t)).every(([, state]) => state === 'SENT')).toBe(true);
    await worker.stop();
  });
});

async function bearer(t: TestApp, partner: 'A' | 'B' = 'A') {
  const { bearerFor } = await import('../helpers/auth.js');
  return bearerFor(t, 'brandau', partner);
}
