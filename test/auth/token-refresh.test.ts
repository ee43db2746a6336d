import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { ensureTestUser } from '../helpers/auth.js';
import { FAST_AUTH_ENV, movableClock, partnerLogin, postToken } from './support.js';
import { createUser, deactivate } from '../../src/auth/accounts.js';
import { prepareIdentity } from '../../src/auth/setup.js';

const clock = movableClock();
const getApp = useTestApp({
  env: { ...FAST_AUTH_ENV, REFRESH_TOKEN_IDLE_SECONDS: '3600', REFRESH_TOKEN_TTL_SECONDS: '7200' },
  clock,
});

async function login(
  t: TestApp,
  brand: 'brandau' | 'brandnz' = 'brandau',
): Promise<{ access_token: string; refresh_token: string }> {
  const { login: username, password } = await ensureTestUser(t, brand);
  const response = await postToken(t.app, partnerLogin(username, password), { brand });
  expect(response.statusCode).toBe(200);
  return response.json();
}

const refresh = (t: TestApp, refreshToken: string, overrides: { client_id?: string; brand?: string } = {}) =>
  postToken(
    t.app,
    { grant_type: 'refresh_token', client_id: overrides.client_id ?? 'API', refresh_token: refreshToken },
    { brand: overrides.brand ?? 'brandau' },
  );

function expectRefused(response: Awaited<ReturnType<typeof refresh>>) {
  expect(response.statusCode).toBe(401);
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
}

describe('POST /users/{brandCode}/token, grant_type=refresh_token', () => {
  it('exchanges a refresh token for a new pair and rotates it', async () => {
    const t = getApp();
    const first = await login(t);
    const response = await refresh(t, first.refresh_token);
    expect(response.statusCode).toBe(200);
    const second = response.json();
    expect(second.token_type).toBe('Bearer');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    const stored = await t.context.db.selectFrom('refresh_token').select('token_hash').execute();
    expect(stored.some((r) => r.token_hash === second.refresh_token || r.token_hash === first.refresh_token)).toBe(
      false,
    );
  });

  it('a replayed (already used) refresh token fails and revokes its whole family', async () => {
    const t = getApp();
    const first = await login(t);
    const second = (await refresh(t, first.refresh_token)).json();
    expectRefused(await refresh(t, first.refresh_token));
    // The attacker's replay also kills the legitimate holder's newer token.
    expectRefused(await refresh(t, second.refresh_token));
    // Another family (another login) is untouched.
    const other = await login(t);
    expect((await refresh(t, other.refresh_token)).statusCode).toBe(200);
  });

  it('of concurrent exchanges of one refresh token, at most one succeeds', async () => {
    const t = getApp();
    const { refresh_token } = await login(t);
    const answers = await Promise.all(Array.from({ length: 6 }, () => refresh(t, refresh_token)));
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok.length).toBe(1);
    for (const a of answers.filter((x) => x.statusCode !== 200)) expectRefused(a);
  });

  it('is bound to its client and brand', async () => {
    const t = getApp();
    const { refresh_token } = await login(t);
    expectRefused(await refresh(t, refresh_token, { client_id: 'mobileApp' }));
    expectRefused(await refresh(t, refresh_token, { brand: 'nomad' }));
    // Those attempts did not burn the owner's token.
    expect((await refresh(t, refresh_token)).statusCode).toBe(200);
  });

  it('an unknown client is invalid_client; an unknown token is invalid_grant', async () => {
    const t = getApp();
    const { refresh_token } = await login(t);
    const response = await refresh(t, refresh_token, { client_id: 'Nope' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('invalid_client');
    expectRefused(await refresh(t, 'x'.repeat(43)));
  });

  it('expires after the idle timeout', async () => {
    const t = getApp();
    const { refresh_token } = await login(t);
    clock.advance(3601);
    expectRefused(await refresh(t, refresh_token));
  });

  it('expires at the family’s absolute lifetime even when used within the idle timeout', async () => {
    const t = getApp();
    let { refresh_token } = await login(t);
    for (let i = 0; i < 3; i++) {
      clock.advance(3000);
      const response = await refresh(t, refresh_token);
      if (i < 2) {
        expect(response.statusCode).toBe(200);
        refresh_token = response.json().refresh_token;
      } else {
        expectRefused(response); // 9000 s after the login, past the 7200 s family lifetime
      }
    }
  });

  it('fails once the user is deactivated', async () => {
    const t = getApp();
    await ensureTestUser(t, 'brandau');
    await createUser(t.context, {
      partnerCode: 'PARTNERA',
      login: 'refresher@partners.test',
      password: 'refresher-password',
      userTypeId: 4,
      brandCodes: ['brandau'],
    });
    const { refresh_token } = (
      await postToken(t.app, partnerLogin('refresher@partners.test', 'refresher-password'))
    ).json();
    await deactivate(t.context, 'refresher@partners.test');
    expectRefused(await refresh(t, refresh_token));
  });

  it('start-up housekeeping removes families past their absolute lifetime (and the last access token of one)', async () => {
    const t = getApp();
    await login(t);
    const count = async () => (await t.context.db.selectFrom('refresh_token').select('id').execute()).length;
    expect(await count()).toBeGreaterThan(0);
    clock.advance(7201);
    await prepareIdentity(t.context);
    // Kept while an access token issued in the family may still be presented (its revocation refuses it).
    expect(await count()).toBeGreaterThan(0);
    clock.advance(t.context.config.auth.accessTokenTtlSeconds);
    await login(t); // a live family survives
    await prepareIdentity(t.context);
    expect(await count()).toBe(1);
  });
});
