import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { checkAnswers } from '../helpers/contract/taps.js';
import { loadConfig, type AppConfig } from '../../src/config/config.js';
import { prepareDatabase } from '../../src/server.js';
import { partnerLogin, postToken } from '../auth/support.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor, ensureTestUser } from '../helpers/auth.js';
import { createTestDatabase, DIALECT, type TestDatabase } from '../helpers/database.js';
import { CARDS, NOW, purchase, purchaseBody, readyQuote } from '../purchases/support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

function expectNoStore(res: LightMyRequestResponse, what: string) {
  expect(res.headers['cache-control'], what).toBe('no-store');
  expect(res.headers.pragma, what).toBe('no-cache');
}

describe(`answers holding personal data or secrets are never stored by caches (${DIALECT})`, () => {
  it('quote, policy, purchase and token answers, and their errors, carry Cache-Control: no-store', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau');
    const { login, password } = await ensureTestUser(t, 'brandau');
    expectNoStore(await postToken(t.app, partnerLogin(login, password)), 'token 200');
    expectNoStore(await postToken(t.app, partnerLogin(login, 'wrong')), 'token 401');

    const quote = await readyQuote(t);
    const quoteRead = await t.app.inject({ method: 'GET', url: `/quotes/v2/brandau/quote/${quote.id}`, headers });
    expect(quoteRead.statusCode).toBe(200);
    expectNoStore(quoteRead, 'quote 200');
    const unknownQuote = `/quotes/v2/brandau/quote/00000000-0000-4000-8000-000000000000`;
    expectNoStore(await t.app.inject({ method: 'GET', url: unknownQuote, headers }), 'quote 404');
    const badQuote = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/quote',
      headers,
      payload: { input: { quoteType: 5 } },
    });
    expect(badQuote.statusCode).toBe(400);
    expectNoStore(badQuote, 'quote 400');
    expectNoStore(await t.app.inject({ method: 'GET', url: `/quotes/v2/brandau/quote/${quote.id}` }), 'quote 401');

    const bought = await purchase(t, purchaseBody(quote, CARDS.approved), { key: 'private-answers-1' });
    expect(bought.statusCode).toBe(200);
    expectNoStore(bought, 'purchase 200');
    const replay = await purchase(t, purchaseBody(quote, CARDS.approved), { key: 'private-answers-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expectNoStore(replay, 'purchase replay');
    expectNoStore(await purchase(t, purchaseBody(quote, CARDS.approved)), 'purchase 409');

    const policyNumber = bought.json<{ quote: { policyNumber: string } }>().quote.policyNumber;
    for (const url of [
      `/policies/v1/brandau/policies/${policyNumber}`,
      `/policies/v1/brandau/policies/${policyNumber}/details`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(200);
      expectNoStore(res, url);
    }
    expectNoStore(
      await t.app.inject({ method: 'GET', url: '/policies/v1/brandau/policies/BACAU260000000', headers }),
      'policy 404',
    );
  });

  it('cacheable product reads keep their own caching headers', async () => {
    const t = getApp();
    const res = await t.app.inject({
      method: 'GET',
      url: '/products/v1/brandau/brands',
      headers: await bearerFor(t, 'brandau'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(res.headers.pragma).toBeUndefined();
  });
});

/** An app of `env` (production allowed: the config is built, not loaded, as no real gateway exists yet). */
async function appWith(
  env: AppConfig['env'],
  metricsToken: string | undefined,
): Promise<{ app: FastifyInstance; database: TestDatabase }> {
  const database = await createTestDatabase();
  const loaded = loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'false' });
  const config: AppConfig = { ...loaded, env, database: database.database, ...(metricsToken ? { metricsToken } : {}) };
  const context = { config, db: database.db, clock: () => new Date() };
  await prepareDatabase(context);
  const app = await buildApp(context, { logger: false });
  await app.ready();
  checkAnswers(app);
  return { app, database };
}

describe('/metrics is private in production', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';
  const apps: { app: FastifyInstance; database: TestDatabase }[] = [];
  let production: FastifyInstance;
  let productionWithToken: FastifyInstance;
  let staging: FastifyInstance;
  let stagingWithToken: FastifyInstance;
  beforeAll(async () => {
    for (const [env, token] of [
      ['production', undefined],
      ['production', TOKEN],
      ['staging', undefined],
      ['staging', TOKEN],
    ] as const)
      apps.push(await appWith(env, token));
    const at = (i: number) => apps[i]!.app;
    [production, productionWithToken, staging, stagingWithToken] = [at(0), at(1), at(2), at(3)];
  });
  afterAll(async () => {
    for (const { app, database } of apps) {
      await app.close();
      await database.destroy();
    }
  });

  const metrics = (app: FastifyInstance, authorization?: string) =>
    app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
  const codeOf = (res: LightMyRequestResponse) =>
    res.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]?.code;

  it('production without METRICS_TOKEN: 403 METRICS_DISABLED for everyone', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const res = await metrics(production, authorization);
      expect(res.statusCode).toBe(403);
      expect(codeOf(res)).toBe('METRICS_DISABLED');
      expect(res.body).not.toContain('nodejs');
    }
  });

  it('with METRICS_TOKEN: 401 METRICS_TOKEN_REQUIRED without it or with another, 200 with it', async () => {
    for (const app of [productionWithToken, stagingWithToken]) {
      for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
        const res = await metrics(app, authorization);
        expect(res.statusCode, String(authorization)).toBe(401);
        expect(codeOf(res)).toBe('METRICS_TOKEN_REQUIRED');
        expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      }
      const res = await metrics(app, `Bearer ${TOKEN}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('http_requests_total');
      expect(res.body).toContain('nodejs_version_info');
    }
  });

  it('staging without METRICS_TOKEN: open, but without the Node.js version', async () => {
    const res = await metrics(staging);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_requests_total');
    expect(res.body).not.toContain('nodejs_version_info');
    expect(res.body).not.toContain(process.version);
  });
});
