import { describe, expect, it } from 'vitest';
import { composePolicyEmail } from '../../src/documents/mail/compose.js';
import { mailTransportFor, sandboxMailbox } from '../../src/documents/mail/transport.js';
import { buildApp } from '../../src/app.js';
import { checkAnswers } from '../helpers/contract/taps.js';
import { useTestApp } from '../helpers/app.js';
import { emailInput, NOMAD_EN, PDF_BYTES } from './fixtures.js';

describe('sandbox mailbox (staging without SMTP_URL)', () => {
  const testApp = useTestApp();

  it('keeps an e-mail once per Message-ID and shows it on /sandbox/mail', async () => {
    const { app, context } = testApp();
    expect(context.config.mail).toEqual({ transport: 'sandbox' });
    const transport = mailTransportFor(context);
    const message = composePolicyEmail(
      // Markup in the brand's footer: the page shows it as text.
      emailInput({
        brand: { code: 'nomad', name: 'Nomad', content: { ...NOMAD_EN, EFOOTER: '<script>x</script> Doe' } },
      }),
    );
    await transport.send(message);
    await transport.send(message);
    await sandboxMailbox(context.db).send(composePolicyEmail(emailInput({ messageKey: 'other', kind: 'Amendment' })));

    const kept = await context.db.selectFrom('sandbox_mail').select(['id', 'message_id']).orderBy('id').execute();
    expect(kept.map((k) => k.message_id)).toEqual([message.messageId, '<other@nomad.example>']);

    const list = await app.inject({ method: 'GET', url: '/sandbox/mail' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(list.headers['content-security-policy']).toContain("default-src 'none'");
    expect(list.body.match(/<tr><td>/g)).toHaveLength(2);
    const firstId = Number(kept[0]?.id);
    expect(list.body).toContain(`href="/sandbox/mail/${String(firstId)}"`);

    const one = await app.inject({ method: 'GET', url: `/sandbox/mail/${String(firstId)}` });
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('Nomad Global &lt;hello@nomad.example&gt;');
    expect(one.body).toContain('&lt;script&gt;x&lt;/script&gt; Doe');
    expect(one.body).not.toContain('<script>');
    expect(one.body).toContain('https://api.example/documents/v1/abcDEF_123-xyz');
    expect(one.body).toContain(`href="/sandbox/mail/${String(firstId)}/attachments/1"`);
    expect(one.body).toContain('certificate-NMD-000123-1.pdf');
    // The HTML part in a sandboxed frame (no allow-scripts), from a route of its own; the text beside it.
    const frame = /<iframe ([^>]*)><\/iframe>/.exec(one.body)?.[1] ?? '';
    expect(frame).toContain('sandbox=""');
    expect(frame).toContain(`src="/sandbox/mail/${String(firstId)}/html"`);
    expect(frame).toMatch(/title="HTML part: [^"]+"/);
    expect(one.body).toContain('<pre data-text>');
    expect(one.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; frame-ancestors 'none'",
    );

    const html = await app.inject({ method: 'GET', url: `/sandbox/mail/${String(firstId)}/html` });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toBe(message.html);
    const policy = String(html.headers['content-security-policy']).split('; ');
    expect(policy).toEqual(expect.arrayContaining(["default-src 'none'", "frame-ancestors 'self'", 'sandbox']));
    expect(policy.some((directive) => directive.startsWith('script-src'))).toBe(false);
    expect(html.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(html.body).toContain('&lt;script&gt;x&lt;/script&gt; Doe');

    const file = await app.inject({ method: 'GET', url: `/sandbox/mail/${String(firstId)}/attachments/1` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe('attachment; filename="certificate-NMD-000123-1.pdf"');
    expect(Buffer.compare(file.rawPayload, Buffer.from(PDF_BYTES))).toBe(0);

    for (const url of [
      '/sandbox/mail/999999',
      '/sandbox/mail/999999/html',
      `/sandbox/mail/${String(firstId)}/attachments/9`,
    ]) {
      const missing = await app.inject({ method: 'GET', url });
      expect(missing.statusCode).toBe(404);
    }
  });
});

describe('sandbox mailbox in production', () => {
  const testApp = useTestApp();

  it('is not served', async () => {
    // Production refuses the sandbox payment gateway at config time, so only the app is built as production.
    const { context } = testApp();
    const config = {
      ...context.config,
      env: 'production' as const,
      mail: { transport: 'smtp' as const, smtpUrl: 'smtp://127.0.0.1:1' },
    };
    const production = await buildApp({ ...context, config }, { logger: false });
    checkAnswers(production);
    try {
      expect((await production.inject({ method: 'GET', url: '/sandbox/mail' })).statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});
