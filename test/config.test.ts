import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { configProblemsOf } from './helpers/config-problems.js';

describe('configuration', () => {
  it('defaults to staging on embedded SQLite with demo data and the sandbox gateway', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'staging',
      host: '127.0.0.1',
      port: 3000,
      basePath: '',
      database: { kind: 'sqlite', path: 'data/partner-api.sqlite' },
      demoData: true,
      paymentGateway: 'sandbox',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads PostgreSQL, a base path and numbers from text', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@h:5432/db',
      BASE_PATH: '/api/v',
      PORT: '8080',
      DB_POOL_SIZE: '4',
    });
    expect(config.database).toMatchObject({ kind: 'postgres', url: 'postgres://u@h:5432/db', poolSize: 4 });
    expect(config.basePath).toBe('/api/v');
    expect(config.port).toBe(8080);
  });

  it('bounds database waits, configurably', () => {
    expect(loadConfig({}).database.limits).toEqual({
      connectTimeoutMs: 5000,
      statementTimeoutMs: 10_000,
      idleInTransactionTimeoutMs: 15_000,
      busyTimeoutMs: 5000,
      applicationName: 'partner-api',
    });
    const set = loadConfig({ DB_STATEMENT_TIMEOUT_MS: '2000', DB_APPLICATION_NAME: 'api-2' }).database.limits;
    expect(set).toMatchObject({ statementTimeoutMs: 2000, applicationName: 'api-2' });
    expect(configProblemsOf({ DB_CONNECT_TIMEOUT_MS: '0' })[0]).toMatch(/^DB_CONNECT_TIMEOUT_MS/);
  });

  it('names every bad variable at once', () => {
    const problems = configProblemsOf({ PORT: 'eighty', BASE_PATH: 'api/', APP_ENV: 'prod', LOG_LEVEL: 'loud' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['APP_ENV', 'BASE_PATH', 'LOG_LEVEL', 'PORT']);
  });

  it('never prints a secret value', () => {
    const secret = 'mysql://admin:hunter2@db/prod';
    const problems = configProblemsOf({ DATABASE_URL: secret });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^DATABASE_URL/);
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('refuses production with demo data, the sandbox gateway, Stripe without a key or no public URL', () => {
    const problems = configProblemsOf({ APP_ENV: 'production', DEMO_DATA: 'true' });
    expect(problems.some((p) => p.startsWith('DEMO_DATA'))).toBe(true);
    // Production's card gateway is Stripe unless told: its key is required.
    expect(problems.some((p) => p.startsWith('STRIPE_SECRET_KEY'))).toBe(true);
    expect(problems.some((p) => p.startsWith('PUBLIC_BASE_URL'))).toBe(true);
    const sandbox = configProblemsOf({ APP_ENV: 'production', PAYMENT_GATEWAY: 'sandbox' });
    expect(sandbox.some((p) => p.startsWith('PAYMENT_GATEWAY'))).toBe(true);
  });

  it('refuses every crash-test hook in production, and reads them in staging', () => {
    const hooks = { PURCHASE_CRASH_AFTER: 'issue', POLICY_CHANGE_CRASH_AFTER: 'apply', OUTBOX_CRASH_AFTER: 'send' };
    const problems = configProblemsOf({ APP_ENV: 'production', ...hooks });
    for (const hook of Object.keys(hooks)) expect(problems.some((p) => p.startsWith(`${hook}:`))).toBe(true);
    expect(loadConfig({ OUTBOX_CRASH_AFTER: 'send' }).outbox.crashAfter).toBe('send');
    expect(loadConfig({}).outbox.crashAfter).toBeUndefined();
  });

  it('turns demo data off by default in production', () => {
    const problems = configProblemsOf({ APP_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.com' });
    expect(problems.some((p) => p.startsWith('DEMO_DATA'))).toBe(false);
  });

  it('bounds request time and the token body by default, and reads overrides', () => {
    expect(loadConfig({})).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      tokenBodyLimitBytes: 8192,
    });
    expect(
      loadConfig({
        HEADERS_TIMEOUT_MS: '2000',
        REQUEST_TIMEOUT_MS: '5000',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
        TOKEN_BODY_LIMIT_BYTES: '4096',
      }),
    ).toMatchObject({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 5000,
      keepAliveTimeoutMs: 65_000,
      tokenBodyLimitBytes: 4096,
    });
  });

  it('refuses unbounded or inconsistent request timeouts', () => {
    const names = (env: Record<string, string>) => configProblemsOf(env).map((p) => p.split(':')[0]);
    expect(names({ REQUEST_TIMEOUT_MS: '0', KEEP_ALIVE_TIMEOUT_MS: '0', TOKEN_BODY_LIMIT_BYTES: '10' }).sort()).toEqual(
      ['KEEP_ALIVE_TIMEOUT_MS', 'REQUEST_TIMEOUT_MS', 'TOKEN_BODY_LIMIT_BYTES'],
    );
    expect(names({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' })).toEqual(['HEADERS_TIMEOUT_MS']);
  });
});
