import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Readable, Writable } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerAuthCommands } from '../../src/auth/cli.js';
import { actionsOnSubject } from '../../src/operators/audit-repository.js';
import { useTestApp } from '../helpers/app.js';
import { FAST_AUTH_ENV, partnerLogin, postToken } from './support.js';

const getApp = useTestApp({ env: FAST_AUTH_ENV });

/** Runs one operator command in-process against the test app's database. */
async function run(args: string[], stdinText = ''): Promise<string> {
  let output = '';
  const program = new Command().exitOverride();
  registerAuthCommands(program, {
    config: () => getApp().context.config,
    stdin: Readable.from([Buffer.from(stdinText)]),
    stdout: new Writable({
      write(chunk: Buffer, _enc, done) {
        output += chunk.toString();
        done();
      },
    }),
  });
  await program.parseAsync(['node', 'partner-api', ...args]);
  return output;
}

describe('operator commands', () => {
  it('partner create, user create (password on stdin), then the user gets a token', async () => {
    expect(await run(['partner', 'create', '--code', 'ACME', '--name', 'Acme Travel', '--on-account'])).toMatch(
      /^Created partner ACME \(id \d+\)\.\n$/,
    );
    const out = await run(
      ['user', 'create', '--partner', 'ACME', '--login', 'Agent@Acme.test', '--brand', 'brandau', 'nomad'],
      'stdin-password-123\n',
    );
    expect(out).toMatch(/^Created user Agent@Acme.test \(id \d+\)\.\n$/);
    expect(out).not.toContain('stdin-password-123');
    const t = getApp();
    expect((await postToken(t.app, partnerLogin('agent@acme.test', 'stdin-password-123'))).statusCode).toBe(200);
    expect(
      (await postToken(t.app, partnerLogin('agent@acme.test', 'stdin-password-123'), { brand: 'nomad' })).statusCode,
    ).toBe(200);
    expect(
      (await postToken(t.app, partnerLogin('agent@acme.test', 'stdin-password-123'), { brand: 'brandnz' })).statusCode,
    ).toBe(401);
    const row = await t.context.db
      .selectFrom('app_user')
      .select('password_hash')
      .where('login_key', '=', 'agent@acme.test')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('user create with --password-file, and with --generate-password printing it once', async () => {
    await run(['partner', 'create', '--code', 'FILEP', '--name', 'File Partner']);
    const file = join(tmpdir(), `pw-${process.pid}.txt`);
    writeFileSync(file, 'file-password-4567\n');
    await run([
      'user',
      'create',
      '--partner',
      'FILEP',
      '--login',
      'file@p.test',
      '--brand',
      'brandau',
      '--password-file',
      file,
    ]);
    expect((await postToken(getApp().app, partnerLogin('file@p.test', 'file-password-4567'))).statusCode).toBe(200);
    const out = await run([
      'user',
      'create',
      '--partner',
      'FILEP',
      '--login',
      'gen@p.test',
      '--brand',
      'brandau',
      '--generate-password',
    ]);
    const generated = /shown only now\): (\S+)/.exec(out)?.[1];
    expect(generated).toBeDefined();
    expect((await postToken(getApp().app, partnerLogin('gen@p.test', generated!))).statusCode).toBe(200);
  });

  it('refuses bad input with a clear error and creates nothing', async () => {
    await expect(
      run(['user', 'create', '--partner', 'NOPE', '--login', 'x@y.test', '--brand', 'brandau'], 'long-enough-password'),
    ).rejects.toThrow(/Partner 'NOPE' does not exist/);
    await expect(
      run(
        ['user', 'create', '--partner', 'ACME', '--login', 'AGENT@acme.test', '--brand', 'brandau'],
        'long-enough-password',
      ),
    ).rejects.toThrow(/taken/);
    await expect(
      run(['user', 'create', '--partner', 'ACME', '--login', 'short@acme.test', '--brand', 'brandau'], 'short'),
    ).rejects.toThrow(/at least 12/);
    await expect(
      run(['user', 'create', '--partner', 'ACME', '--login', 'b@acme.test', '--brand', 'acme'], 'long-enough-password'),
    ).rejects.toThrow(/Brand 'acme'/);
    await expect(run(['partner', 'create', '--code', 'ACME', '--name', 'Again'])).rejects.toThrow(/already exists/);
  });

  it('user deactivate stops new tokens', async () => {
    await run(
      ['user', 'create', '--partner', 'ACME', '--login', 'temp@acme.test', '--brand', 'brandau'],
      'temporary-password',
    );
    expect(await run(['user', 'deactivate', '--login', 'TEMP@acme.test'])).toMatch(/^Deactivated user TEMP@acme.test/);
    expect((await postToken(getApp().app, partnerLogin('temp@acme.test', 'temporary-password'))).statusCode).toBe(401);
    await expect(run(['user', 'deactivate', '--login', 'ghost@acme.test'])).rejects.toThrow(/No user/);
  });

  it('user reactivate lets a deactivated user get tokens again; the sessions revoked on deactivation stay revoked', async () => {
    const t = getApp();
    await run(
      ['user', 'create', '--partner', 'ACME', '--login', 'back@acme.test', '--brand', 'brandau'],
      'back-password-123',
    );
    const login = partnerLogin('back@acme.test', 'back-password-123');
    const first = (await postToken(t.app, login)).json<{ access_token: string; refresh_token: string }>();
    expect(await run(['user', 'deactivate', '--login', 'back@acme.test', '--reason', 'left'])).toMatch(
      /^Deactivated user/,
    );
    expect(await run(['user', 'deactivate', '--login', 'back@acme.test'])).toMatch(/^Deactivated user/);
    expect(await run(['user', 'reactivate', '--login', 'BACK@acme.test'])).toMatch(/^Reactivated user BACK@acme.test/);
    await expect(run(['user', 'reactivate', '--login', 'back@acme.test'])).rejects.toThrow(/enabled already/);
    await expect(run(['user', 'reactivate', '--login', 'ghost@acme.test'])).rejects.toThrow(/No user/);
    expect((await postToken(t.app, login)).statusCode).toBe(200);
    // Recorded as the command line (NO_OPERATOR); the second deactivation changed nothing.
    const userId = (
      await t.context.db
        .selectFrom('app_user')
        .select('id')
        .where('login_key', '=', 'back@acme.test')
        .executeTakeFirstOrThrow()
    ).id;
    const audit = await actionsOnSubject(t.context.db, 'partner_user', String(userId));
    expect(audit.map((e) => [e.operatorId, e.action, e.reason])).toEqual([
      [0, 'partner_user.disable', 'left'],
      [0, 'partner_user.enable', undefined],
    ]);
    const refreshed = await postToken(t.app, {
      grant_type: 'refresh_token',
      client_id: 'API',
      refresh_token: first.refresh_token,
    });
    expect(refreshed.statusCode).toBe(401);
    const old = await t.app.inject({
      method: 'GET',
      url: '/partners/v1/brandau/webhooks',
      headers: { authorization: `Bearer ${first.access_token}` },
    });
    expect(old.statusCode).toBe(401);
  });

  it('keys rotate adds a new active key and retires the old one', async () => {
    const db = getApp().context.db;
    const before = await db.selectFrom('signing_key').select(['kid', 'retired_at']).execute();
    const out = await run(['keys', 'rotate']);
    const kid = /New signing key (\S+);/.exec(out)?.[1];
    const after = await db.selectFrom('signing_key').select(['kid', 'retired_at', 'verify_until']).execute();
    expect(after).toHaveLength(before.length + 1);
    expect(after.filter((k) => k.retired_at === null).map((k) => k.kid)).toEqual([kid]);
    expect(after.filter((k) => k.kid !== kid).every((k) => k.verify_until !== null)).toBe(true);
  });
});
