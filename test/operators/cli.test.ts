import { Readable, Writable } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config/config.js';
import { operatorDepsFor } from '../../src/operators/deps.js';
import { registerOperatorCommands } from '../../src/operators/cli.js';
import { codeAt } from '../../src/operators/second-factor.js';
import { signIn } from '../../src/operators/sign-in.js';
import { useTestApp } from '../helpers/app.js';
import { FAST_AUTH_ENV } from '../auth/support.js';

const getApp = useTestApp({ env: FAST_AUTH_ENV });

/** Runs one `operator …` command in-process against the test app's database. */
async function run(args: string[], options: { stdin?: string; config?: Partial<AppConfig> } = {}): Promise<string> {
  let output = '';
  const program = new Command().exitOverride();
  registerOperatorCommands(program, {
    config: () => ({ ...getApp().context.config, ...options.config }),
    stdin: Readable.from([Buffer.from(options.stdin ?? '')]),
    stdout: new Writable({
      write(chunk: Buffer, _enc, done) {
        output += chunk.toString();
        done();
      },
    }),
  });
  await program.parseAsync(['node', 'partner-api', 'operator', ...args]);
  return output;
}

const deps = () => operatorDepsFor(getApp().context);

async function auditActions(username: string) {
  const db = getApp().context.db;
  const { id } = await db
    .selectFrom('operator')
    .select('id')
    .where('username_key', '=', username)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('operator_action')
    .select(['action', 'operator_id'])
    .where('subject_type', '=', 'operator')
    .where('subject_id', '=', String(id))
    .orderBy('id')
    .execute();
  return rows.map((r) => `${r.action}:${r.operator_id}`);
}

describe('operator commands', () => {
  it('create with a generated password and a second factor, printed once; the operator signs in with both', async () => {
    const out = await run(['create', '--username', 'Ops.Anna', '--name', 'Anna Ops', '--role', 'underwriter']);
    expect(out).toMatch(/^Created operator Ops\.Anna \(id \d+, UNDERWRITER\)\.\n/);
    const password = /Generated password \(shown only now\): (\S+)/.exec(out)![1]!;
    const secret = /secret: ([A-Z2-7]+)/.exec(out)![1]!;
    expect(out).toMatch(/otpauth:\/\/totp\/[^\n]*secret=/);
    const code = codeAt(secret, new Date());
    expect(await signIn(deps(), { username: 'ops.anna', password, code })).toHaveProperty('signedIn');
    expect(await auditActions('ops.anna')).toEqual([
      'operator.create:0',
      expect.stringMatching(/^operator\.sign_in:\d+$/),
    ]);
  });

  it('create with the password on standard input and no second factor; refused in production', async () => {
    const out = await run(
      ['create', '--username', 'ben', '--name', 'Ben', '--role', 'SUPPORT', '--password-stdin', '--no-second-factor'],
      {
        stdin: 'a-password-from-stdin\n',
      },
    );
    expect(out).toMatch(/^Created operator ben \(id \d+, SUPPORT\)\.\n$/);
    expect(await signIn(deps(), { username: 'ben', password: 'a-password-from-stdin' })).toHaveProperty('signedIn');
    await expect(
      run(['create', '--username', 'cleo', '--name', 'Cleo', '--role', 'SUPPORT', '--no-second-factor'], {
        config: { env: 'production' },
      }),
    ).rejects.toMatchObject({ code: 'SECOND_FACTOR_REQUIRED' });
    await expect(run(['create', '--username', 'BEN', '--name', 'Ben 2', '--role', 'SUPPORT'])).rejects.toMatchObject({
      code: 'USERNAME_TAKEN',
    });
    await expect(run(['create', '--username', 'dora', '--name', 'Dora', '--role', 'ADMIN'])).rejects.toMatchObject({
      code: 'UNKNOWN_ROLE',
    });
  });

  it('list, disable, enable, unlock, set-role and reset-second-factor, each in the audit trail', async () => {
    await run(['create', '--username', 'eve', '--name', 'Eve Example', '--role', 'READ_ONLY', '--password-stdin'], {
      stdin: 'eve-password-12345',
    });
    expect(await run(['list'])).toMatch(/^eve\tEve Example\tREAD_ONLY\tACTIVE\tTOTP\t\d{4}-/m);
    expect(await run(['disable', '--username', 'EVE'])).toBe('Disabled operator eve; their sessions have ended.\n');
    expect(await run(['list'])).toMatch(/^eve\t.*\tDISABLED\t/m);
    expect(await run(['enable', '--username', 'eve'])).toBe('Enabled operator eve.\n');
    for (let i = 0; i < 5; i += 1) await signIn(deps(), { username: 'eve', password: `wrong-${i}` });
    expect(await run(['list'])).toMatch(/^eve\t.*\tLOCKED\t/m);
    expect(await run(['unlock', '--username', 'eve'])).toBe('Unlocked operator eve.\n');
    expect(await run(['set-role', '--username', 'eve', '--role', 'SENIOR_UNDERWRITER'])).toBe(
      'Operator eve is now SENIOR_UNDERWRITER.\n',
    );
    const reset = await run(['reset-second-factor', '--username', 'eve']);
    const secret = /secret: ([A-Z2-7]+)/.exec(reset)![1]!;
    const code = codeAt(secret, new Date());
    expect(await signIn(deps(), { username: 'eve', password: 'eve-password-12345', code })).toHaveProperty('signedIn');
    const actions = (await auditActions('eve')).filter((a) => !a.startsWith('operator.sign_in'));
    expect(actions).toEqual([
      'operator.create:0',
      'operator.disable:0',
      'operator.enable:0',
      'operator.locked:0',
      'operator.unlock:0',
      'operator.set_role:0',
      'operator.reset_second_factor:0',
    ]);
    await expect(run(['disable', '--username', 'nobody'])).rejects.toMatchObject({ code: 'OPERATOR_NOT_FOUND' });
  });
});
