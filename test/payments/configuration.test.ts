import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('payments configuration', () => {
  it('IDEMPOTENCY_RETENTION_HOURS defaults to 24 and is validated by name', () => {
    expect(loadConfig({}).idempotencyRetentionHours).toBe(24);
    expect(loadConfig({ IDEMPOTENCY_RETENTION_HOURS: '48' }).idempotencyRetentionHours).toBe(48);
    for (const bad of ['0', '721', 'day']) {
      expect(() => loadConfig({ IDEMPOTENCY_RETENTION_HOURS: bad })).toThrow(/IDEMPOTENCY_RETENTION_HOURS/);
    }
  });

  it('the sandbox gateway is the staging default and refused in production', () => {
    expect(loadConfig({}).paymentGateway).toBe('sandbox');
    const production = { APP_ENV: 'production', DEMO_DATA: 'false', PUBLIC_BASE_URL: 'https://api.example.com' };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/PAYMENT_GATEWAY/);
  });
});
