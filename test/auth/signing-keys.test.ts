import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { checkAnswers } from '../helpers/contract/taps.js';
import { loadConfig } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { protectWithBearer } from '../../src/auth/guard.js';
import { principalOf } from '../../src/auth/principal.js';
import { KeyStore, openPrivateKey, rotateSigningKey } from '../../src/auth/keys.js';
import { useTestApp } from '../helpers/app.js';
import { ensureTestUser } from '../helpers/auth.js';
import { FAST_AUTH_ENV, movableClock, partnerLogin, postToken } from './support.js';

async function guardedRoute(app: FastifyInstance) {
  await app.register((scope, _opts, done) => {
    protectWithBearer(scope);
    scope.get('/guarded/:brandCode/whoami', (request) => principalOf(request));
    done();
  });
}

const clock = movableClock();
const getApp = useTestApp({
  env: { ...FAST_AUTH_ENV, SIGNING_KEY_CACHE_SECONDS: '300' },
  clock,
  beforeReady: guardedRoute,
});

// Another process on the same database, configured for EdDSA.
let other: FastifyInstance;
let otherDb: Db;
let otherContext: AppContext;
beforeAll(async () => {
  const t = getApp();
  otherDb = connectDatabase(t.database.database);
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false', ...FAST_AUTH_ENV, JWT_ALGORITHM: 'EdDSA' }),
    database: t.database.database,
  };
  otherContext = { config, db: otherDb, clock };
  other = await buildApp(otherContext, { logger: false });
  await guardedRoute(other);
  await other.ready();
  checkAnswers(other);
});
afterAll(async () => {
  await other.close();
  await otherDb.destroy();
});

async function token(app: FastifyInstance): Promise<string> {
  const { login, password } = await ensureTestUser(getApp(), 'brandau');
  const response = await postToken(app, partnerLogin(login, password));
  expect(response.statusCode).toBe(200);
  return response.json<{ access_token: string }>().access_token;
}

const call = (app: FastifyInstance, accessToken: string) =>
  app.inject({ method: 'GET', url: '/guarded/brandau/whoami', headers: { authorization: `Bearer ${accessToken}` } });

describe('signing keys', () => {
  it('keeps private keys sealed at rest, openable only with KEY_ENCRYPTION_SECRET', async () => {
    const t = getApp();
    await token(t.app);
    const rows = await t.context.db.selectFrom('signing_key').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.private_key_sealed).not.toContain('PRIVATE KEY');
      expect(openPrivateKey(t.context.config.auth.keyEncryptionSecret, row.kid, row.private_key_sealed)).toContain(
        'BEGIN PRIVATE KEY',
      );
      expect(() => openPrivateKey('another-secret-of-at-least-32-characters', row.kid, row.private_key_sealed)).toThrow(
        /KEY_ENCRYPTION_SECRET/,
      );
    }
  });

  it('verification accepts only the configured algorithm', async () => {
    const es256 = await token(getApp().app);
    const eddsa = await token(other);
    expect(decodeProtectedHeader(es256).alg).toBe('ES256');
    expect(decodeProtectedHeader(eddsa).alg).toBe('EdDSA');
    expect((await call(getApp().app, es256)).statusCode).toBe(200);
    expect((await call(other, eddsa)).statusCode).toBe(200);
    expect((await call(other, es256)).statusCode).toBe(401);
    expect((await call(getApp().app, eddsa)).statusCode).toBe(401);
  });

  it('rotation: new tokens use the new key, old tokens keep working, and another process picks the new key up', async () => {
    const t = getApp();
    const before = await token(t.app);
    const { kid } = await rotateSigningKey(t.context);
    expect(decodeProtectedHeader(before).kid).not.toBe(kid);
    // A process that rotated: its own cache is stale for up to SIGNING_KEY_CACHE_SECONDS, so
    // a fresh KeyStore (a newly started process) signs with the new key at once.
    const fresh = new KeyStore(t.context);
    expect((await fresh.signingKey()).kid).toBe(kid);
    const claims = decodeJwt(before);
    const now = Math.floor(clock().getTime() / 1000);
    const signed = await new SignJWT({ ...claims, iat: now, exp: now + 3600 })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
      .sign((await fresh.signingKey()).key);
    // The app's cached key set has never seen `kid`: an unknown kid makes it reload.
    const r = await call(t.app, signed);
    expect(r.statusCode).toBe(200);
    expect((await call(t.app, before)).statusCode).toBe(200);
  });

  it('a retired key stops verifying once every token it could have signed has expired', async () => {
    const t = getApp();
    const store = new KeyStore(t.context);
    const old = await store.signingKey();
    await rotateSigningKey(t.context);
    const claims = decodeJwt(await token(t.app));
    const now = Math.floor(clock().getTime() / 1000);
    // Forged lifetime far beyond the TTL, signed with the retired key: valid only while that key is.
    const longLived = await new SignJWT({ ...claims, iat: now, exp: now + 86_400 * 7 })
      .setProtectedHeader({ alg: 'ES256', kid: old.kid, typ: 'at+jwt' })
      .sign(old.key);
    expect((await call(t.app, longLived)).statusCode).toBe(200);
    clock.advance(3600 + 300 + 61);
    const response = await call(t.app, longLived);
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(await new KeyStore(t.context).verificationKey(old.kid)).toBeUndefined();
  });
});
