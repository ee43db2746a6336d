import { describe, expect, it } from 'vitest';
import {
  composePolicyEmail,
  MailContentMissing,
  messageIdFor,
  parseMailbox,
} from '../../src/documents/mail/compose.js';
import { emailInput, NOMAD_EN, NOMAD_ES } from './fixtures.js';

describe('composePolicyEmail', () => {
  it('takes From and Reply-To from EMAILREPLYTOANDFROM, and a stable Message-ID from the key', () => {
    const message = composePolicyEmail(emailInput());
    expect(message.from).toEqual({ name: 'Nomad Global', address: 'hello@nomad.example' });
    expect(message.replyTo).toEqual(message.from);
    expect(message.to).toEqual({ name: 'Ana Pérez', address: 'ana@example.com' });
    expect(message.messageId).toBe('<policy-documents=3A12=3A1@nomad.example>');
    expect(composePolicyEmail(emailInput()).messageId).toBe(message.messageId);
    expect(message.subject).toBe('Your travel insurance policy NMD-000123');
  });

  it('carries EMAILDOC, EFOOTER, the policy number and the document link in text and HTML', () => {
    const message = composePolicyEmail(emailInput());
    for (const body of [message.text, message.html]) {
      expect(body).toContain(NOMAD_EN.EMAILDOC);
      expect(body).toContain(NOMAD_EN.EFOOTER);
      expect(body).toContain('NMD-000123');
      expect(body).toContain('https://api.example/documents/v1/abcDEF_123-xyz');
      expect(body).toContain('certificate-NMD-000123-1.pdf');
    }
    expect(message.html).toContain('<a href="https://api.example/documents/v1/abcDEF_123-xyz">');
    expect(message.attachments).toHaveLength(2);
  });

  it('words each transaction kind', () => {
    const text = (kind: 'Purchase' | 'Amendment' | 'Cancellation') => composePolicyEmail(emailInput({ kind })).text;
    expect(text('Purchase')).toContain('Thank you for buying');
    expect(text('Amendment')).toContain('has been amended');
    expect(text('Cancellation')).toContain('has been cancelled');
  });

  it('escapes everything in the HTML: a holder named <script> stays text', () => {
    const message = composePolicyEmail(
      emailInput({
        holder: { firstName: '<script>alert(1)</script>', lastName: 'O"Brien & Co', email: 'x@example.com' },
        brand: { code: 'nomad', name: 'Nomad', content: { ...NOMAD_EN, EFOOTER: '<b>Footer</b>' } },
        attachments: [{ filename: '<img src=x>.pdf', contentType: 'application/pdf', content: new Uint8Array(1) }],
      }),
    );
    expect(message.html).not.toMatch(/<script|<b>|<img/i);
    expect(message.html).toContain('&lt;b&gt;Footer&lt;/b&gt;');
    expect(message.html).toContain('&lt;img src=x&gt;.pdf');
    // Such a "name" is no name: the customer is greeted without it.
    expect(message.text).toContain('Dear customer,');
    expect(message.html).not.toContain('script');
  });

  it('greets by name only with a personal name: partner text with a link never reaches the e-mail', () => {
    const greeting = (firstName: string, lastName: string) =>
      composePolicyEmail(emailInput({ holder: { firstName, lastName, email: 'x@example.com' } })).text.split('\n')[0];
    expect(greeting('Claim your refund at http://evil.example/r', 'Team')).toBe('Dear customer,');
    expect(greeting('Ann', 'www.evil.example')).toBe('Dear customer,');
    expect(greeting('J. R. R.', 'Tolkien')).toBe('Dear J. R. R. Tolkien,');
    expect(greeting('Seán', "O'Brien-Smith")).toBe("Dear Seán O'Brien-Smith,");
    expect(greeting('Иван', 'Петров')).toBe('Dear Иван Петров,');
    expect(greeting('小明', '王')).toBe('Dear 小明 王,');
  });

  it('keeps control characters out of names and the subject', () => {
    const message = composePolicyEmail(
      emailInput({ holder: { firstName: 'Ana\r\nBcc: evil@x', lastName: 'P', email: 'a@example.com' } }),
    );
    // No name at all rather than a header built from partner text.
    expect(message.to.name).toBeUndefined();
    expect(message.subject).not.toMatch(/[\r\n]/);
  });

  it('writes Spanish with the brand’s es content', () => {
    const message = composePolicyEmail(
      emailInput({ language: 'es', kind: 'Cancellation', brand: { code: 'nomad', name: 'Nomad', content: NOMAD_ES } }),
    );
    expect(message.from.address).toBe('hola@nomad.example');
    expect(message.subject).toBe('Su póliza de seguro de viaje NMD-000123');
    expect(message.text).toContain('Estimado/a Ana Pérez:');
    expect(message.text).toContain('ha sido cancelada');
    expect(message.text).toContain(NOMAD_ES.EMAILDOC);
    expect(message.html).toContain('<html lang="es">');
  });

  it('refuses a brand without EMAILREPLYTOANDFROM or EMAILDOC, and a non-http link', () => {
    const without = (type: string) => {
      const content = Object.fromEntries(Object.entries(NOMAD_EN).filter(([key]) => key !== type));
      return emailInput({ brand: { code: 'nomad', name: 'Nomad', content } });
    };
    expect(() => composePolicyEmail(without('EMAILREPLYTOANDFROM'))).toThrow(MailContentMissing);
    expect(() => composePolicyEmail(without('EMAILDOC'))).toThrow(MailContentMissing);
    expect(() => composePolicyEmail(emailInput({ documentLinkUrl: 'javascript:alert(1)' }))).toThrow();
  });

  it('parses mailboxes and encodes Message-ID keys injectively', () => {
    expect(parseMailbox('a@b.example')).toEqual({ address: 'a@b.example' });
    expect(parseMailbox('"Brand X" <a@b.example>')).toEqual({ name: 'Brand X', address: 'a@b.example' });
    expect(parseMailbox('not an address')).toBeUndefined();
    expect(messageIdFor('a:b', 'd')).not.toBe(messageIdFor('a.b', 'd'));
    expect(messageIdFor('a=3Ab', 'd')).not.toBe(messageIdFor('a:b', 'd'));
  });
});
