import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { composePolicyEmail } from '../../src/documents/mail/compose.js';
import { MailSendFailed, smtpTransport } from '../../src/documents/mail/transport.js';
import { emailInput, PDF_BYTES } from './fixtures.js';
import { startSmtpServer } from '../helpers/smtp-server.js';

describe('smtpTransport', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
  });

  afterAll(async () => {
    await smtp.close();
  });

  it('delivers text, HTML and PDF attachments intact, keeping our Message-ID, From and Reply-To', async () => {
    const message = composePolicyEmail(emailInput());
    await smtpTransport(smtp.url).send(message);

    expect(smtp.received).toHaveLength(1);
    const [{ envelopeTo, mail }] = smtp.received as [(typeof smtp.received)[number]];
    expect(envelopeTo).toEqual(['ana@example.com']);
    expect(mail.messageId).toBe('<policy-documents=3A12=3A1@nomad.example>');
    expect(mail.from?.value).toEqual([{ name: 'Nomad Global', address: 'hello@nomad.example' }]);
    expect(mail.replyTo?.value).toEqual([{ name: 'Nomad Global', address: 'hello@nomad.example' }]);
    expect(mail.subject).toBe('Your travel insurance policy NMD-000123 is confirmed');
    expect(mail.text?.trim()).toBe(message.text.trim());
    expect(mail.html).toContain('https://api.example/documents/v1/abcDEF_123-xyz');
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['certificate-NMD-000123-1.pdf', 'application/pdf'],
      ['pds.pdf', 'application/pdf'],
    ]);
    expect(Buffer.compare(mail.attachments[0]?.content ?? Buffer.alloc(0), Buffer.from(PDF_BYTES))).toBe(0);
    expect(Buffer.compare(mail.attachments[1]?.content ?? Buffer.alloc(0), Buffer.from(PDF_BYTES.slice(0, 64)))).toBe(
      0,
    );
  });

  it('sends a resend with the same Message-ID', async () => {
    smtp.received.length = 0;
    const transport = smtpTransport(smtp.url);
    const message = composePolicyEmail(emailInput({ language: 'en', kind: 'Amendment', messageKey: 'k:2' }));
    await transport.send(message);
    await transport.send(message);
    expect(smtp.received.map((r) => r.mail.messageId)).toEqual(['<k=3A2@nomad.example>', '<k=3A2@nomad.example>']);
  });

  it('fails without a server, as a value-free MailSendFailed (the outbox retries)', async () => {
    const closed = smtpTransport('smtp://127.0.0.1:1?connectionTimeout=2000');
    const error = await closed.send(composePolicyEmail(emailInput())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailSendFailed);
    expect(error).toMatchObject({ code: 'ESOCKET', permanent: false });
  });

  it('tells a refused recipient (5xx) as permanent, naming no address', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const refused = Object.assign(new Error(`No mailbox ${address.address}`), { responseCode: 550 });
        callback(refused);
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const refusingPort = (refusing.server.address() as AddressInfo).port;
      const transport = smtpTransport(`smtp://127.0.0.1:${String(refusingPort)}`);
      const error = await transport.send(composePolicyEmail(emailInput())).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MailSendFailed);
      expect(error).toMatchObject({ permanent: true, responseCode: 550 });
      expect((error as Error).message).not.toContain('ana@example.com');
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
