import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createPartner } from '../../src/auth/accounts.js';
import { FAST_AUTH_ENV, partnerLogin, postToken } from '../auth/support.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';

const run = promisify(execFile);

describe('operator commands', () => {
  const getApp = useTestApp({ env: FAST_AUTH_ENV });

  it(
    'is wired into the real command line (src/cli.ts), password on stdin',
    async () => {
      const t = getApp();
      const env = { ...process.env, ...t.database.env, ...FAST_AUTH_ENV, LOG_LEVEL: 'silent', DEMO_DATA: 'false' };
      const cli = (args: string[], input?: string) =>
        new Promise<string>((resolve, reject) => {
          const child = execFile(
            process.execPath,
            ['--import', 'tsx', 'src/cli.ts', ...args],
            { env },
            (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
          );
          child.stdin?.end(input ?? '');
        });
      await createPartner(t.context, { code: 'REALCLI', name: 'Real CLI' }); // one child process is slow enough
      expect(
        await cli(
          ['user', 'create', '--partner', 'REALCLI', '--login', 'cli@real.test', '--brand', 'directau'],
          'cli-password-2026\n',
        ),
      ).toMatch(/Created user/);
      expect(
        (await postToken(t.app, partnerLogin('cli@real.test', 'cli-password-2026'), { brand: 'directau' })).statusCode,
      ).toBe(200);
    },
    scaled(60_000),
  );
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
