import { describe, expect, it } from 'vitest';
import {
  composePolicyEmail,
  MailContentMissing,
  messageIdFor,
  parseMailbox,
} from '../../src/documents/mail/compose.js';
import type { PolicyActionType } from '../../src/policies/schemas-detail.js';
import { emailInput, NOMAD_EN, NOMAD_ES } from './fixtures.js';

/** Intl writes a no-break space between a currency code and its amount; compared as a space. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('composePolicyEmail', () => {
  it('takes From and Reply-To from EMAILREPLYTOANDFROM, and a stable Message-ID from the key', () => {
    const message = composePolicyEmail(emailInput());
    expect(message.from).toEqual({ name: 'Nomad Global', address: 'hello@nomad.example' });
    expect(message.replyTo).toEqual(message.from);
    expect(message.to).toEqual({ name: 'Ana Pérez', address: 'ana@example.com' });
    expect(message.messageId).toBe('<policy-documents=3A12=3A1@nomad.example>');
    expect(composePolicyEmail(emailInput()).messageId).toBe(message.messageId);
    expect(message.subject).toBe('Your travel insurance policy NMD-000123 is confirmed');
  });

  it('says in the subject what happened, per transaction kind and for a resend, in en and es', () => {
    const subject = (kind: PolicyActionType, resend: boolean, language: 'en' | 'es') =>
      composePolicyEmail(emailInput({ kind, resend, language, brand: { ...emailInput().brand, content: NOMAD_ES } }))
        .subject;
    expect(subject('Purchase', false, 'en')).toBe('Your travel insurance policy NMD-000123 is confirmed');
    expect(subject('Amendment', false, 'en')).toBe('Your travel insurance policy NMD-000123 has been changed');
    expect(subject('Cancellation', false, 'en')).toBe('Your travel insurance policy NMD-000123 has been cancelled');
    expect(subject('Cancellation', true, 'en')).toBe('Your documents for policy NMD-000123');
    expect(subject('Purchase', false, 'es')).toBe('Su póliza de seguro de viaje NMD-000123 está confirmada');
    expect(subject('Amendment', false, 'es')).toBe('Su póliza de seguro de viaje NMD-000123 ha sido modificada');
    expect(subject('Cancellation', false, 'es')).toBe('Su póliza de seguro de viaje NMD-000123 ha sido cancelada');
    expect(subject('Amendment', true, 'es')).toBe('Sus documentos de la póliza NMD-000123');
  });

  it('tells the trip dates in the policy zone, the travellers, the amount paid and the emergency number', () => {
    const message = composePolicyEmail(emailInput());
    const text = plain(message.text);
    expect(text).toContain('Trip dates: 10 December 2026 to 23 December 2026 (America/New_York time)\n');
    expect(text).toContain('Travellers: Ana Pérez, Luis Pérez\n');
    expect(text).toContain('Amount paid: USD 123.45\n');
    expect(text).toContain('In an emergency: 24/7 emergency assistance: +44 20 3000 4000\n');
    expect(text).toContain(`${NOMAD_EN.EMAILDOC}\n`);
    expect(text).toContain(
      'Attached to this e-mail (2):\n- Certificate of insurance (certificate-NMD-000123-1.pdf)\n- Policy Wording 2026 (pds.pdf)\n',
    );
    expect(plain(message.html)).toContain('<a href="tel:+442030004000" style="color:#1d4ed8">+44 20 3000 4000</a>');
  });

  it('words a cancellation as a refund on its date in the policy zone, and claims only what is attached', () => {
    const notice = emailInput().attachments[0]!;
    const message = composePolicyEmail(
      emailInput({
        kind: 'Cancellation',
        money: { currencyCode: 'USD', minorDigits: 2, transactionMinor: -5000, paidToDateMinor: 7345 },
        attachments: [
          { ...notice, filename: 'cancellation-notice-NMD-000123-2-en.pdf', document: { kind: 'CANCELLATION_NOTICE' } },
        ],
      }),
    );
    const text = plain(message.text);
    expect(text).toContain('Amount refunded: USD 50.00\n');
    expect(text).not.toMatch(/-\s?USD|USD\s?-|-50\.00/);
    // 03:30 UTC on 22 November is the evening of the 21st in New York.
    expect(text).toContain('Cancelled on: 21 November 2026\n');
    expect(text).toContain(
      'Attached to this e-mail:\n- Cancellation notice (cancellation-notice-NMD-000123-2-en.pdf)\n',
    );
    // The brand's "your documents are attached" sentence is not said without the certificate and the PDS.
    expect(text).not.toContain(NOMAD_EN.EMAILDOC);
    expect(text.match(/attached/gi)).toHaveLength(1);
    expect(text).not.toMatch(/certificate/i);
  });

  it('tells a resend as such, with where the policy stands and what was paid for it', () => {
    const text = plain(
      composePolicyEmail(
        emailInput({
          kind: 'Cancellation',
          resend: true,
          money: { currencyCode: 'USD', minorDigits: 2, transactionMinor: -5000, paidToDateMinor: 7345 },
        }),
      ).text,
    );
    expect(text).toContain(
      'As requested, here are the documents of your policy NMD-000123. This policy has been cancelled.',
    );
    expect(text).toContain('Total paid for this policy: USD 73.45\n');
    expect(text).not.toContain('Cancelled on');
  });

  it('says nothing was paid or refunded for a change that moved no money, and writes amounts in the language', () => {
    expect(
      composePolicyEmail(emailInput({ kind: 'Amendment', money: { ...emailInput().money, transactionMinor: 0 } })).text,
    ).toContain('Amount: nothing paid or refunded');
    const es = plain(
      composePolicyEmail(emailInput({ language: 'es', brand: { code: 'nomad', name: 'Nomad', content: NOMAD_ES } }))
        .text,
    );
    expect(es).toContain('Importe pagado: 123,45 USD\n');
    expect(es).toContain(
      'Fechas del viaje: del 10 de diciembre de 2026 al 23 de diciembre de 2026 (hora de America/New_York)\n',
    );
    const yen = composePolicyEmail(
      emailInput({ money: { currencyCode: 'JPY', minorDigits: 0, transactionMinor: 5000, paidToDateMinor: 5000 } }),
    );
    expect(plain(yen.text)).toContain('Amount paid: JPY 5,000\n');
  });

  it('writes a self-contained HTML part that fits a phone: inline styles, nothing fetched, no script', () => {
    const { html } = composePolicyEmail(emailInput());
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/max-width:600px/);
    expect(html).toMatch(/font-size:16px/);
    expect(html).not.toMatch(/<(script|img|link|style|iframe|object|form)\b/i);
    expect(html).not.toMatch(/\bsrc=|url\(/i);
    // The only addresses in it: the document link and the emergency number.
    expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'https://api.example/documents/v1/abcDEF_123-xyz',
      'tel:+442030004000',
    ]);
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
    expect(message.html).toContain('<a href="https://api.example/documents/v1/abcDEF_123-xyz" style=');
    expect(message.attachments).toHaveLength(2);
  });

  it('words each transaction kind', () => {
    const text = (kind: PolicyActionType) => composePolicyEmail(emailInput({ kind })).text;
    expect(text('Purchase')).toContain('Thank you for buying');
    expect(text('Amendment')).toContain('has been changed');
    expect(text('Cancellation')).toContain('has been cancelled');
  });

  it('escapes everything in the HTML: a holder named <script> stays text', () => {
    const message = composePolicyEmail(
      emailInput({
        holder: { firstName: '<script>alert(1)</script>', lastName: 'O"Brien & Co', email: 'x@example.com' },
        brand: { code: 'nomad', name: 'Nomad', content: { ...NOMAD_EN, EFOOTER: '<b>Footer</b>' } },
        attachments: [
          {
            filename: '<img src=x>.pdf',
            contentType: 'application/pdf',
            content: new Uint8Array(1),
            document: { kind: 'PDS', name: '<b>Wording</b>' },
          },
        ],
        travellers: [
          { firstName: 'Ana', lastName: 'Pérez' },
          { firstName: 'Visit', lastName: 'http://evil.example' },
        ],
      }),
    );
    expect(message.html).not.toMatch(/<script|<b>|<img/i);
    expect(message.html).toContain('&lt;b&gt;Footer&lt;/b&gt;');
    expect(message.html).toContain('&lt;img src=x&gt;.pdf');
    expect(message.html).toContain('&lt;b&gt;Wording&lt;/b&gt;');
    // Such a "name" is no name: the customer is greeted without it, a traveller is numbered.
    expect(message.text).toContain('Dear customer,');
    expect(message.text).toContain('Travellers: Ana Pérez, Traveller 2\n');
    expect(message.html).not.toContain('evil.example');
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
    expect(message.subject).toBe('Su póliza de seguro de viaje NMD-000123 ha sido cancelada');
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
