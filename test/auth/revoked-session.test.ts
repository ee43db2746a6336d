import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { checkAnswers } from '../helpers/contract/taps.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ensureTestUser } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { FAST_AUTH_ENV, movableClock, partnerLogin, postToken } from './support.js';

/**
 * Reuse detection revokes a refresh-token family (RFC 9700 §4.14.2); the access tokens issued in
 * that family (claim `sid`) are refused from then on: at once in the process that revoked it, on
 * Fastify's path and the front cache's, and within USER_STATUS_CACHE_SECONDS in any other.
 */
const clock = movableClock();
const PRODUCT = '/products/v1/brandau/brands';
let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { ...FAST_AUTH_ENV, DEMO_DATA: 'true', CATALOGUE_REFRESH_SECONDS: '60' }, clock });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

interface Tokens {
  access_token: string;
  refresh_token: string;
}

async function login(): Promise<Tokens> {
  const { login: username, password } = await ensureTestUser(t, 'brandau');
  const res = await postToken(t.app, partnerLogin(username, password));
  expect(res.statusCode).toBe(200);
  return res.json();
}

const refresh = (app: FastifyInstance, refreshToken: string) =>
  postToken(app, { grant_type: 'refresh_token', client_id: 'API', refresh_token: refreshToken });

/** A product read over a real connection: the front cache answers it once Fastify has. */
function overHttp(accessToken: string): Promise<{ status: number; challenge: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${PRODUCT}`, { headers: { authorization: `Bearer ${accessToken}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, challenge: res.headers['www-authenticate'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A Fastify route (`inject` never meets the front cache): 404 for an unknown quote once authenticated. */
const fastifyPath = (app: FastifyInstance, accessToken: string) =>
  app.inject({
    method: 'GET',
    url: '/quotes/v2/brandau/quote/00000000-0000-4000-8000-000000000000',
    headers: { authorization: `Bearer ${accessToken}` },
  });

describe(`access tokens of a revoked refresh family (${DIALECT})`, () => {
  it('carry the family as `sid`', async () => {
    const first = await login();
    const rotated = (await refresh(t.app, first.refresh_token)).json<Tokens>();
    const sid = decodeJwt(first.access_token).sid;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(decodeJwt(rotated.access_token).sid).toBe(sid);
    expect(decodeJwt((await login()).access_token).sid).not.toBe(sid);
  });

  it('get 401 at once after reuse detection, on the front cache path and the Fastify path', async () => {
    const first = await login();
    const bystander = await login();
    // Warm both paths: the front cache answers the second read from memory.
    expect((await overHttp(first.access_token)).status).toBe(200);
    const before = t.app.frontCache.answered;
    expect((await overHttp(first.access_token)).status).toBe(200);
    expect(t.app.frontCache.answered).toBe(before + 1);
    expect((await fastifyPath(t.app, first.access_token)).statusCode).toBe(404);

    const second = (await refresh(t.app, first.refresh_token)).json<Tokens>();
    expect((await overHttp(second.access_token)).status).toBe(200);
    // The old refresh token again: reuse, the whole family is revoked.
    expect((await refresh(t.app, first.refresh_token)).statusCode).toBe(401);

    const answered = t.app.frontCache.answered;
    for (const token of [first.access_token, second.access_token]) {
      const read = await overHttp(token);
      expect(read.status).toBe(401);
      expect(read.challenge).toContain('error="invalid_token"');
      const res = await fastifyPath(t.app, token);
      expect(res.statusCode).toBe(401);
      expect(res.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]?.code).toBe(
        'INVALID_TOKEN',
      );
    }
    expect(t.app.frontCache.answered).toBe(answered);
    // Another sign-in of the same user is another family, untouched.
    expect((await overHttp(bystander.access_token)).status).toBe(200);
    expect((await fastifyPath(t.app, bystander.access_token)).statusCode).toBe(404);
  });

  it('another process sharing the database refuses them within USER_STATUS_CACHE_SECONDS', async () => {
    const other = await buildApp(t.context, { logger: false });
    await other.ready();
    checkAnswers(other);
    try {
      const first = await login();
      expect((await fastifyPath(other, first.access_token)).statusCode).toBe(404);
      await refresh(t.app, first.refresh_token);
      expect((await refresh(t.app, first.refresh_token)).statusCode).toBe(401);
      // The other process still trusts its cached answer for the documented window, then asks again.
      expect((await fastifyPath(other, first.access_token)).statusCode).toBe(404);
      clock.advance(t.context.config.auth.userStatusCacheSeconds);
      expect((await fastifyPath(other, first.access_token)).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });
});
