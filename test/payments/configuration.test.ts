import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import type { Db } from '../../src/db/database.js';
import { everyRouteTo, type PaymentGateway } from '../../src/payments/gateway.js';
import { paymentGatewaysFor } from '../../src/payments/gateways.js';
import { SandboxGateway } from '../../src/payments/sandbox/gateway.js';
import { StripeGateway } from '../../src/payments/stripe/gateway.js';
import { changeDepsFor } from '../../src/policy-changes/deps.js';
import { purchaseDepsFor } from '../../src/purchases/deps.js';
import { configProblemsOf } from '../helpers/config-problems.js';

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
    const production = {
      APP_ENV: 'production',
      DEMO_DATA: 'false',
      PUBLIC_BASE_URL: 'https://api.example.com',
      PAYMENT_GATEWAY: 'sandbox',
    };
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

describe('card gateways per brand, and Stripe settings', () => {
  const PRODUCTION = {
    APP_ENV: 'production',
    PUBLIC_BASE_URL: 'https://api.example.com',
    KEY_ENCRYPTION_SECRET: 'a-production-secret-of-32-characters-or-more',
    CONSOLE_SESSION_SECRET: 'a-console-session-secret-of-32-characters-or-more',
    SMTP_URL: 'smtp://mail.example.com',
  };
  const KEY = 'sk_live_51Hsecretvalue0000000000';

  it('production starts with Stripe by default, and refuses the sandbox for any brand', () => {
    const config = loadConfig({ ...PRODUCTION, STRIPE_SECRET_KEY: KEY });
    expect(config.paymentGateway).toBe('stripe');
    expect(config.payments.stripe).toMatchObject({ host: 'api.stripe.com', port: 443, protocol: 'https' });
    const override = configProblemsOf({
      ...PRODUCTION,
      STRIPE_SECRET_KEY: KEY,
      PAYMENT_GATEWAY_BRANDS: 'nomad:sandbox',
    });
    expect(override.some((p) => p.startsWith('PAYMENT_GATEWAY'))).toBe(true);
    expect(configProblemsOf({ ...PRODUCTION }).some((p) => p.startsWith('STRIPE_SECRET_KEY'))).toBe(true);
  });

  it('production refuses plain http to Stripe unless the host is this machine (a stand-in)', () => {
    const http = { ...PRODUCTION, STRIPE_SECRET_KEY: KEY, STRIPE_API_PROTOCOL: 'http' };
    expect(configProblemsOf({ ...http, STRIPE_API_HOST: 'stripe.example.com' })[0]).toMatch(/^STRIPE_API_PROTOCOL/);
    expect(
      loadConfig({ ...http, STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: '12111' }).payments.stripe,
    ).toMatchObject({ host: '127.0.0.1', port: 12111, protocol: 'http' });
  });

  it('staging keeps the sandbox by default; per-brand overrides pick each brand its gateway', () => {
    expect(loadConfig({}).payments).toEqual({ brandGateways: {} });
    const config = loadConfig({ PAYMENT_GATEWAY_BRANDS: 'brandau:stripe,nomad:sandbox', STRIPE_SECRET_KEY: KEY });
    expect(config.paymentGateway).toBe('sandbox');
    expect(config.payments.brandGateways).toEqual({ brandau: 'stripe', nomad: 'sandbox' });
    for (const bad of ['brandau', 'brandau:paypal', 'mars:stripe', 'brandau:stripe;nomad:sandbox'])
      expect(configProblemsOf({ PAYMENT_GATEWAY_BRANDS: bad, STRIPE_SECRET_KEY: KEY })[0]).toMatch(
        /^PAYMENT_GATEWAY_BRANDS/,
      );
    // Stripe for one brand needs its key.
    expect(configProblemsOf({ PAYMENT_GATEWAY_BRANDS: 'brandau:stripe' })[0]).toMatch(/^STRIPE_SECRET_KEY/);

    const context = { config, db: Object.create(null) as Db, clock: () => new Date() };
    const gateways = paymentGatewaysFor(context);
    expect(gateways.gatewayFor({ brandCode: 'brandau', paymentMethod: 'CARD', partnerId: 1 })).toBeInstanceOf(
      StripeGateway,
    );
    expect(gateways.gatewayFor({ brandCode: 'nomad', paymentMethod: 'CARD', partnerId: 1 })).toBeInstanceOf(
      SandboxGateway,
    );
    expect(gateways.gatewayFor({ brandCode: 'brandnz', paymentMethod: 'CARD', partnerId: 1 })).toBeInstanceOf(
      SandboxGateway,
    );
    // One instance per gateway in a process.
    expect(gateways.gatewayFor({ brandCode: 'brandau', paymentMethod: 'CARD', partnerId: 1 })).toBe(
      gateways.gatewayFor({ brandCode: 'brandau', paymentMethod: 'CARD', partnerId: 1 }),
    );
  });

  it('the key from a file (not both); neither the key nor the file text is ever in a problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-key-'));
    try {
      const file = join(dir, 'key');
      writeFileSync(file, 'sk_test_fromthefile000000\n');
      const config = loadConfig({ PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY_FILE: file });
      expect(config.payments.stripe?.secretKey).toBe('sk_test_fromthefile000000');
      const both = configProblemsOf({
        PAYMENT_GATEWAY: 'stripe',
        STRIPE_SECRET_KEY: KEY,
        STRIPE_SECRET_KEY_FILE: file,
      });
      expect(both).toEqual(['STRIPE_SECRET_KEY_FILE: set together with STRIPE_SECRET_KEY; set one']);
      writeFileSync(file, 'not-a-key-but-a-secret-password\n');
      const bad = configProblemsOf({ PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY_FILE: file });
      expect(bad[0]).toMatch(/^STRIPE_SECRET_KEY: /);
      expect(bad.join('\n')).not.toContain('secret-password');
      const missing = configProblemsOf({ PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY_FILE: join(dir, 'none') });
      expect(missing[0]).toMatch(/^STRIPE_SECRET_KEY_FILE: cannot be read/);
      const malformed = configProblemsOf({
        PAYMENT_GATEWAY: 'stripe',
        STRIPE_SECRET_KEY: 'sk_live_has spaces hunter2',
      });
      expect(malformed.join('\n')).not.toContain('hunter2');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
