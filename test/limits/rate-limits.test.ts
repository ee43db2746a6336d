import type { LightMyRequestResponse } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { FAST_AUTH_ENV, partnerLogin, postToken } from '../auth/support.js';

/** Small budgets so a test reaches them in a few requests; limits are on (the helper's default is off). */
const LIMITS_ENV = {
  ...FAST_AUTH_ENV,
  RATE_LIMITS: 'true',
  RATE_LIMIT_READS: '5',
  RATE_LIMIT_QUOTE_WRITES: '3',
  RATE_LIMIT_PURCHASES: '2',
  RATE_LIMIT_TOKEN_PER_ADDRESS: '8',
  RATE_LIMIT_TOKEN_PER_USERNAME: '4',
};

async function send(t: TestApp, method: 'GET' | 'POST' | 'PUT', url: string, partner: 'A' | 'B' = 'A') {
  return t.app.inject({
    method,
    url,
    headers: await bearerFor(t, 'brandau', partner),
    ...(method === 'GET' ? {} : { payload: {} }),
  });
}

async function repeat(times: number, call: () => Promise<LightMyRequestResponse>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await call()).statusCode);
  return statuses;
}

function expectLimited(answer: LightMyRequestResponse, limitClass: string, quota: number, windowSeconds = 60) {
  expect(answer.statusCode).toBe(429);
  const retryAfter = Number(answer.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(answer.headers['ratelimit-policy']).toBe(`"${limitClass}";q=${quota};w=${windowSeconds}`);
  expect(answer.headers.ratelimit).toBe(`"${limitClass}";r=0;t=${retryAfter}`);
}

describe('request limits per partner, by route class', () => {
  const getApp = useTestApp({ env: LIMITS_ENV });

  it('reads: the budget is per partner; past it a 429 with the API error body and the limit headers', async () => {
    const t = getApp();
    const read = (partner: 'A' | 'B') => send(t, 'GET', '/quotes/v2/brandau/quote/1', partner);
    const first = await read('A');
    expect(first.statusCode).toBe(404);
    // Successful (non-429) answers carry no limit headers: see http/limits/rate-limits.ts.
    expect(first.headers['ratelimit-policy']).toBeUndefined();
    expect(await repeat(4, () => read('A'))).toEqual([404, 404, 404, 404]);
    const limited = await read('A');
    expectLimited(limited, 'reads', 5);
    expect(limited.headers['x-request-id']).toBeDefined();
    expect(limited.json()).toEqual({
      validation: { isValid: false, errors: [{ code: 'RATE_LIMITED', message: expect.stringContaining('reads') }] },
    });
    // Partner B has its own budget.
    expect((await read('B')).statusCode).toBe(404);
  });

  it('quote writes and purchases have budgets of their own', async () => {
    const t = getApp();
    const create = () => send(t, 'POST', '/quotes/v2/brandau/quote', 'B');
    const update = () => send(t, 'PUT', '/quotes/v2/brandau/quote/1', 'B');
    expect(await repeat(2, create)).toEqual([400, 400]);
    expect((await update()).statusCode).not.toBe(429);
    expectLimited(await create(), 'quote-writes', 3);
    expectLimited(await update(), 'quote-writes', 3);

    const purchase = () => send(t, 'POST', '/quotes/v2/brandau/purchase', 'B');
    expect((await repeat(2, purchase)).filter((s) => s === 429)).toEqual([]);
    expectLimited(await purchase(), 'purchases', 2);
  });
});

describe('request limits on the token endpoint', () => {
  const getApp = useTestApp({ env: LIMITS_ENV });

  it('per client address, answered in the OAuth error format', async () => {
    const t = getApp();
    const from = { remoteAddress: '192.0.2.10' };
    // Distinct unknown users; names without long digit runs, which the card-number filter would refuse.
    let attempt = 0;
    const statuses = await repeat(8, () =>
      postToken(t.app, partnerLogin(`someone-${'abcdefgh'[attempt++]}@x.test`, 'pw'), from),
    );
    expect(statuses.every((s) => s === 401)).toBe(true);
    const limited = await postToken(t.app, partnerLogin('another@x.test', 'pw'), from);
    expectLimited(limited, 'token-address', 8);
    expect(limited.headers['cache-control']).toBe('no-store');
    expect(limited.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    // Counted on arrival: a malformed request counts (and is refused) too.
    expect((await t.app.inject({ method: 'POST', url: '/users/brandau/token', ...from })).statusCode).toBe(429);
    expect(
      (await postToken(t.app, partnerLogin('another@x.test', 'pw'), { remoteAddress: '192.0.2.11' })).statusCode,
    ).toBe(401);
  });

  it('per username (any letter case), from any address', async () => {
    const t = getApp();
    const statuses = await repeat(4, () =>
      postToken(t.app, partnerLogin(Math.random() < 0.5 ? 'Target@x.test' : 'target@x.test', 'pw'), {
        remoteAddress: `198.51.100.${Math.floor(Math.random() * 200)}`,
      }),
    );
    expect(statuses.every((s) => s === 401)).toBe(true);
    const limited = await postToken(t.app, partnerLogin('TARGET@x.test', 'pw'), { remoteAddress: '203.0.113.99' });
    expectLimited(limited, 'token-username', 4);
    expect(limited.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });
});

describe('request limits are configurable', () => {
  const getApp = useTestApp({ env: { ...LIMITS_ENV, RATE_LIMIT_WINDOW_SECONDS: '1', RATE_LIMIT_READS: '2' } });

  it('a budget refills when its window ends', async () => {
    const t = getApp();
    const read = () => send(t, 'GET', '/quotes/v2/brandau/quote/1');
    expect(await repeat(2, read)).toEqual([404, 404]);
    expectLimited(await read(), 'reads', 2, 1);
    await sleep(1100);
    expect((await read()).statusCode).toBe(404);
  });

  it('has documented defaults, on unless RATE_LIMITS=false', () => {
    expect(loadConfig({}).rateLimits).toEqual({
      enabled: true,
      windowSeconds: 60,
      quotas: {
        reads: 3000,
        'quote-writes': 600,
        purchases: 120,
        'token-address': 120,
        'token-username': 60,
        'document-link': 30,
        'screening-link': 60,
      },
      redisUrl: undefined,
      redisPrefix: 'partner-api:rate-limit:',
    });
    expect(loadConfig({ RATE_LIMITS: 'false' }).rateLimits.enabled).toBe(false);
    expect(() => loadConfig({ RATE_LIMIT_READS: '0' })).toThrow(/RATE_LIMIT_READS/);
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
  });
});
