import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor, ensureTestUser } from '../helpers/auth.js';
import { FAST_AUTH_ENV, movableClock, partnerLogin, postToken } from './support.js';
import { protectWithBearer } from '../../src/auth/guard.js';
import { principalOf } from '../../src/auth/principal.js';
import { KeyStore } from '../../src/auth/keys.js';
import { createUser, deactivate } from '../../src/auth/accounts.js';

const clock = movableClock();
const getApp = useTestApp({
  env: { ...FAST_AUTH_ENV, USER_STATUS_CACHE_SECONDS: '0' },
  clock,
  // A test-only scope guarded exactly like src/app.ts guards `protectedApi`.
  beforeReady: async (app) => {
    await app.register((scope, _opts, done) => {
      protectWithBearer(scope);
      scope.get('/guarded/:brandCode/whoami', (request) => principalOf(request));
      scope.get('/guarded/plain', (request) => ({ partnerId: principalOf(request).partnerId }));
      done();
    });
    // An ordinary JSON endpoint outside the token endpoint's scope.
    app.post('/json-only', (request) => ({ received: request.body }));
  },
});

const whoami = (authorization: string | undefined, brand = 'brandau', query = '') =>
  getApp().app.inject({
    method: 'GET',
    url: `/guarded/${brand}/whoami${query}`,
    headers: authorization === undefined ? {} : { authorization },
  });

async function tokenFor(brand: 'brandau' | 'nomad' = 'brandau'): Promise<string> {
  return (await bearerFor(getApp(), brand)).authorization!.slice('Bearer '.length);
}

function expectEnvelope(body: unknown, code: string) {
  expect(body).toEqual({ validation: { isValid: false, errors: [expect.objectContaining({ code })] } });
}

describe('bearer guard', () => {
  it('lets a valid token through and sets the principal', async () => {
    const response = await whoami(`Bearer ${await tokenFor()}`);
    expect(response.statusCode).toBe(200);
    const principal = response.json();
    expect(principal).toMatchObject({
      partnerCode: 'PARTNERA',
      brandCode: 'brandau',
      userTypeId: 4,
      customerInterfaceId: 8,
    });
    expect(principal.userId).toBeGreaterThan(0);
    expect(principal.partnerId).toBeGreaterThan(0);
    const plain = await getApp().app.inject({
      method: 'GET',
      url: '/guarded/plain',
      headers: { authorization: `Bearer ${await tokenFor()}` },
    });
    expect(plain.json()).toEqual({ partnerId: principal.partnerId });
  });

  it('no Authorization header: 401 with a bare Bearer challenge', async () => {
    const response = await whoami(undefined);
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="partner-api"');
    expectEnvelope(response.json(), 'TOKEN_REQUIRED');
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b', 'Token abc', 'Bearer ab"c'])(
    'malformed header %j: 400 invalid_request',
    async (header) => {
      const response = await whoami(header);
      expect(response.statusCode).toBe(400);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="partner-api", error="invalid_request"');
      expectEnvelope(response.json(), 'INVALID_AUTHORIZATION_HEADER');
    },
  );

  it('a token in the query string is refused (400), with or without the header', async () => {
    const token = await tokenFor();
    for (const header of [`Bearer ${token}`, undefined]) {
      const response = await whoami(header, 'brandau', `?access_token=${token}`);
      expect(response.statusCode).toBe(400);
    }
  });

  it('accepts the scheme name in any case', async () => {
    expect((await whoami(`bearer ${await tokenFor()}`)).statusCode).toBe(200);
  });

  async function expectInvalidToken(token: string) {
    const response = await whoami(`Bearer ${token}`);
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="partner-api", error="invalid_token"/);
    expectEnvelope(response.json(), 'INVALID_TOKEN');
  }

  it('tampered, garbage, unsigned and HS256-with-the-public-key tokens: 401 invalid_token', async () => {
    const token = await tokenFor();
    const [header, payload, signature] = token.split('.');
    const claims = decodeJwt(token);
    const forged = Buffer.from(JSON.stringify({ ...claims, brand: 'nomad' })).toString('base64url');
    await expectInvalidToken(`${header}.${forged}.${signature}`);
    await expectInvalidToken(`${header}.${payload}.${signature!.slice(0, -4)}AAAA`);
    await expectInvalidToken('not-a-jwt');
    const kid = decodeProtectedHeader(token).kid!;
    const none = new UnsecuredJWT(claims).encode();
    const noneWithKid = `${Buffer.from(JSON.stringify({ alg: 'none', kid, typ: 'at+jwt' })).toString('base64url')}.${none.split('.')[1]}.`;
    await expectInvalidToken(noneWithKid);
    const row = await getApp()
      .context.db.selectFrom('signing_key')
      .select('public_key_pem')
      .where('kid', '=', kid)
      .executeTakeFirstOrThrow();
    const hs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' })
      .sign(Buffer.from(row.public_key_pem));
    await expectInvalidToken(hs256);
  });

  it('a token of this server with the wrong issuer, audience or type: 401 invalid_token', async () => {
    const t = getApp();
    const claims = decodeJwt(await tokenFor());
    const { kid, key } = await new KeyStore(t.context).signingKey();
    const sign = (c: Record<string, unknown>, typ = 'at+jwt') =>
      new SignJWT(c).setProtectedHeader({ alg: 'ES256', kid, typ }).sign(key);
    expect((await whoami(`Bearer ${await sign(claims)}`)).statusCode).toBe(200); // the control: same key, same claims
    await expectInvalidToken(await sign({ ...claims, iss: 'https://elsewhere.example' }));
    await expectInvalidToken(await sign({ ...claims, brand: 'nomad' })); // iss is brandau's issuer
    await expectInvalidToken(await sign({ ...claims, aud: 'another-api' }));
    await expectInvalidToken(await sign(claims, 'JWT'));
    await expectInvalidToken(await sign({ ...claims, partner_id: 'x' }));
  });

  it('an expired token: 401 invalid_token', async () => {
    const token = await tokenFor('nomad');
    clock.advance(3601);
    try {
      const response = await whoami(`Bearer ${token}`, 'nomad');
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
      expect(response.json().validation.errors[0].message).toContain('expired');
    } finally {
      clock.advance(-3601);
    }
  });

  it('a token answered from the verified-token cache still expires on time', async () => {
    const token = await tokenFor('nomad');
    expect((await whoami(`Bearer ${token}`, 'nomad')).statusCode).toBe(200); // verified, now remembered
    const { exp } = decodeJwt(token);
    const secondsLeft = (exp ?? 0) - Math.floor(clock().getTime() / 1000);
    clock.advance(secondsLeft - 1);
    try {
      expect((await whoami(`Bearer ${token}`, 'nomad')).statusCode).toBe(200); // last second of its life
      clock.advance(1);
      const response = await whoami(`Bearer ${token}`, 'nomad');
      expect(response.statusCode).toBe(401);
      expect(response.json().validation.errors[0].message).toContain('expired');
    } finally {
      clock.advance(-secondsLeft);
    }
  });

  it('a refresh token used as a bearer token is refused', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'brandau');
    const { refresh_token } = (await postToken(t.app, partnerLogin(login, password))).json();
    await expectInvalidToken(refresh_token);
  });

  it('a deactivated user’s access token is refused at once', async () => {
    const t = getApp();
    await ensureTestUser(t, 'brandau', 'B');
    await createUser(t.context, {
      partnerCode: 'PARTNERB',
      login: 'soon-gone@partners.test',
      password: 'soon-gone-password',
      userTypeId: 4,
      brandCodes: ['brandau'],
    });
    const { access_token } = (
      await postToken(t.app, partnerLogin('soon-gone@partners.test', 'soon-gone-password'))
    ).json();
    expect((await whoami(`Bearer ${access_token}`)).statusCode).toBe(200);
    await deactivate(t.context, 'soon-gone@partners.test');
    await expectInvalidToken(access_token);
  });

  it('authenticates first: an unknown brand without a token is 401, with a valid token 404 UNKNOWN_BRAND', async () => {
    expect((await whoami(undefined, 'acme')).statusCode).toBe(401);
    const response = await whoami(`Bearer ${await tokenFor()}`, 'acme');
    expect(response.statusCode).toBe(404);
    expectEnvelope(response.json(), 'UNKNOWN_BRAND');
  });

  it('a token for another brand: 403 BRAND_NOT_ALLOWED with insufficient_scope', async () => {
    const response = await whoami(`Bearer ${await tokenFor('brandau')}`, 'nomad');
    expect(response.statusCode).toBe(403);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="partner-api", error="insufficient_scope"/);
    expectEnvelope(response.json(), 'BRAND_NOT_ALLOWED');
  });

  it('the form parser exists only for the token endpoint: other endpoints refuse form bodies (415)', async () => {
    const app = getApp().app;
    const form = await app.inject({
      method: 'POST',
      url: '/json-only',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1',
    });
    expect(form.statusCode).toBe(415);
    const json = await app.inject({ method: 'POST', url: '/json-only', payload: { a: 1 } });
    expect(json.json()).toEqual({ received: { a: 1 } });
  });

  it('bearerFor gives partners A and B different principals for the same brand', async () => {
    const a = (await whoami((await bearerFor(getApp(), 'brandau', 'A')).authorization)).json();
    const b = (await whoami((await bearerFor(getApp(), 'brandau', 'B')).authorization)).json();
    expect(a.partnerCode).toBe('PARTNERA');
    expect(b.partnerCode).toBe('PARTNERB');
    expect(a.partnerId).not.toBe(b.partnerId);
  });
});

describe('bearer guard with a user-status cache', () => {
  const cacheClock = movableClock();
  const getCached = useTestApp({
    env: { ...FAST_AUTH_ENV, USER_STATUS_CACHE_SECONDS: '30' },
    clock: cacheClock,
    beforeReady: async (app) => {
      await app.register((scope, _opts, done) => {
        protectWithBearer(scope);
        scope.get('/guarded/:brandCode/whoami', (request) => principalOf(request));
        done();
      });
    },
  });

  it('refuses a deactivated user’s token once the cached answer is older than USER_STATUS_CACHE_SECONDS', async () => {
    const t = getCached();
    await ensureTestUser(t, 'brandau');
    await createUser(t.context, {
      partnerCode: 'PARTNERA',
      login: 'cached@partners.test',
      password: 'cached-password-1',
      userTypeId: 4,
      brandCodes: ['brandau'],
    });
    const { access_token } = (await postToken(t.app, partnerLogin('cached@partners.test', 'cached-password-1'))).json();
    const call = () =>
      t.app.inject({
        method: 'GET',
        url: '/guarded/brandau/whoami',
        headers: { authorization: `Bearer ${access_token}` },
      });
    expect((await call()).statusCode).toBe(200);
    await deactivate(t.context, 'cached@partners.test');
    expect((await call()).statusCode).toBe(200); // within the cache period (documented)
    cacheClock.advance(31);
    expect((await call()).statusCode).toBe(401);
  });
});
