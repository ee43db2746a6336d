import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';

const run = promisify(execFile);

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

describe(`purge-idempotency-keys command (${DIALECT})`, () => {
  const getTestApp = useTestApp();

  it('deletes expired keys only', async () => {
    const { context, database } = getTestApp();
    const row = (key: string, expiresAt: string) => ({
      scope: 'A',
      idempotency_key: key,
      fingerprint: 'f',
      state: 'completed',
      response_status: 200,
      response_content_type: 'application/json',
      response_body: '{}',
      lock_token: key,
      locked_at: '2020-01-01T00:00:00.000Z',
      created_at: '2020-01-01T00:00:00.000Z',
      expires_at: expiresAt,
    });
    await context.db
      .insertInto('idempotency_key')
      .values([row('old', '2020-01-02T00:00:00.000Z'), row('new', '2999-01-01T00:00:00.000Z')])
      .execute();
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'purge-idempotency-keys'], {
      env: { ...process.env, ...database.env, LOG_LEVEL: 'silent' },
    });
    expect(stdout).toContain('Deleted 1 expired idempotency key(s).');
    const left = await context.db.selectFrom('idempotency_key').select('idempotency_key').execute();
    expect(left.map((r) => r.idempotency_key)).toEqual(['new']);
  });
});
