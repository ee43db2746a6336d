import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import type { Db } from '../../src/db/database.js';
import { everyRouteTo, type PaymentGateway } from '../../src/payments/gateway.js';
import { changeDepsFor } from '../../src/policy-changes/deps.js';
import { purchaseDepsFor } from '../../src/purchases/deps.js';

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

  it('the in-process crash hook and the crash-test steps reach the money flow only outside production', () => {
    const crashHook = (_step: string) => undefined;
    const gateways = everyRouteTo({} as PaymentGateway);
    const staging = loadConfig({ PURCHASE_CRASH_AFTER: 'captured', POLICY_CHANGE_CRASH_AFTER: 'settle' });
    // The collaborators only, never used: no database is opened.
    const context: AppContext = { config: staging, db: Object.create(null) as Db, clock: () => new Date(), crashHook };
    expect(purchaseDepsFor(context, gateways)).toMatchObject({ crashHook, crashAfter: 'captured' });
    expect(changeDepsFor(context, gateways)).toMatchObject({ crashHook, crashAfter: 'settle' });
    // A production process never has one (the server builds no hook), and would not pass it on.
    const production: AppContext = { ...context, config: { ...staging, env: 'production' } };
    expect(purchaseDepsFor(production, gateways)).not.toHaveProperty('crashHook');
    expect(changeDepsFor(production, gateways)).not.toHaveProperty('crashHook');
    expect(purchaseDepsFor(production, gateways)).not.toHaveProperty('crashAfter');
  });
});
