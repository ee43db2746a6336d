import { Readable, Writable } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerAuthCommands } from '../../src/auth/cli.js';
import { useTestApp } from '../helpers/app.js';
import { ensureTestUser, testLogin, testPassword } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { FAST_AUTH_ENV, partnerLogin, postToken } from './support.js';

const getApp = useTestApp({ env: FAST_AUTH_ENV });

/** Runs one operator command in-process against the test app's database. */
async function run(args: string[]): Promise<string> {
  let output = '';
  const program = new Command().exitOverride();
  registerAuthCommands(program, {
    config: () => getApp().context.config,
    stdin: Readable.from([]),
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

const login = (partner: 'A' | 'B') => partnerLogin(testLogin('brandau', partner), testPassword('brandau', partner));

describe(`partner brand codes at the token endpoint (spec §5 note 6, ${DIALECT})`, () => {
  it('managed with the CLI; a code gives its partner a token of the mapped brand, and no other partner one', async () => {
    const t = getApp();
    await ensureTestUser(t, 'brandau', 'A');
    await ensureTestUser(t, 'brandau', 'B');
    expect(await run(['partner', 'brand-code', 'add', 'PARTNERA', 'Acme-Travel', '--brand', 'brandau'])).toBe(
      'Brand code acme-travel of partner PARTNERA now stands for brandau.\n',
    );
    expect(await run(['partner', 'brand-code', 'list', 'PARTNERA'])).toBe('acme-travel\tbrandau\n');
    // Another partner cannot take the code; a brand's own code is no partner code.
    await expect(run(['partner', 'brand-code', 'add', 'PARTNERB', 'acme-travel', '--brand', 'nomad'])).rejects.toThrow(
      /already in use/,
    );
    await expect(run(['partner', 'brand-code', 'add', 'PARTNERB', 'brandnz', '--brand', 'brandnz'])).rejects.toThrow(
      /not one of the four brands/,
    );
    await expect(run(['partner', 'brand-code', 'add', 'PARTNERB', 'bee', '--brand', 'nobrand'])).rejects.toThrow(
      /must be one of/,
    );

    const issued = await postToken(t.app, login('A'), { brand: 'acme-travel' });
    expect(issued.statusCode, issued.body).toBe(200);
    const { access_token: token, refresh_token: refresh } = issued.json<{
      access_token: string;
      refresh_token: string;
    }>();
    const auth = { authorization: `Bearer ${token}` };
    const own = await t.app.inject({ method: 'GET', url: '/partners/v1/brandau/webhooks', headers: auth });
    expect(own.statusCode).toBe(200);
    const other = await t.app.inject({ method: 'GET', url: '/partners/v1/nomad/webhooks', headers: auth });
    expect(other.statusCode).toBe(403);

    // Partner B's user, right password, partner A's code: refused like bad credentials.
    const foreign = await postToken(t.app, login('B'), { brand: 'acme-travel' });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toMatchObject({ error: 'invalid_grant' });

    // The refresh grant through the code: for partner A's refresh token only.
    const renewed = await postToken(
      t.app,
      { grant_type: 'refresh_token', client_id: 'API', refresh_token: refresh },
      { brand: 'ACME-TRAVEL' },
    );
    expect(renewed.statusCode, renewed.body).toBe(200);
    const tokenB = (await postToken(t.app, login('B'))).json<{ refresh_token: string }>().refresh_token;
    const stolen = await postToken(
      t.app,
      { grant_type: 'refresh_token', client_id: 'API', refresh_token: tokenB },
      { brand: 'acme-travel' },
    );
    expect(stolen.statusCode).toBe(401);
    // …and B's refresh token was not burnt by that refusal.
    expect(
      (await postToken(t.app, { grant_type: 'refresh_token', client_id: 'API', refresh_token: tokenB })).statusCode,
    ).toBe(200);

    expect(await run(['partner', 'brand-code', 'remove', 'PARTNERA', 'acme-travel'])).toBe(
      'Brand code acme-travel of partner PARTNERA removed.\n',
    );
    expect(await run(['partner', 'brand-code', 'list', 'PARTNERA'])).toBe('Partner PARTNERA has no brand codes.\n');
    const gone = await postToken(t.app, login('A'), { brand: 'acme-travel' });
    expect(gone.statusCode).toBe(404);
  });

  it('an unknown or malformed code is refused with the documented body, before any credential is checked', async () => {
    const t = getApp();
    for (const code of ['no-such-label', 'x', '9lives', 'a%20b']) {
      const res = await postToken(t.app, login('A'), { brand: code });
      expect(res.statusCode, code).toBe(404);
      expect(res.json()).toEqual({
        error: 'invalid_request',
        error_description: `Brand '${decodeURIComponent(code)}' does not exist.`,
      });
    }
  });

  it('the RFC 8414 metadata says partner brand codes are accepted, without listing any', async () => {
    const t = getApp();
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server/users/brandau' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ partner_brand_codes_supported: true });
  });
});
