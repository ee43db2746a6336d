import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { configProblemsOf } from '../helpers/config-problems.js';

describe('mail configuration', () => {
  it('keeps e-mails in the sandbox mailbox in staging without SMTP_URL', () => {
    expect(loadConfig({}).mail).toEqual({ transport: 'sandbox' });
  });

  it('sends through SMTP when SMTP_URL is set', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example:465' }).mail).toEqual({
      transport: 'smtp',
      smtpUrl: 'smtps://u:p@mail.example:465',
    });
  });

  it('refuses production without SMTP_URL, and a URL that is not SMTP, without printing it', () => {
    expect(configProblemsOf({ APP_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example' })).toContain(
      'SMTP_URL: required when APP_ENV=production',
    );
    const problems = configProblemsOf({ SMTP_URL: 'http://secret-password@mail.example' });
    expect(problems.some((p) => p.startsWith('SMTP_URL'))).toBe(true);
    expect(problems.join('\n')).not.toContain('secret-password');
  });
});
