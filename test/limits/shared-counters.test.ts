import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useSecondApp, useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { FAST_AUTH_ENV, partnerLogin, postToken } from '../auth/support.js';
import { scaled } from '../helpers/time-scale.js';

// The limits must hold across server processes: with REDIS_URL both apps count in one Redis.
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('request limits shared through Redis (TEST_REDIS_URL; .ci/run starts Redis)', () => {
  const getApp = useTestApp({
    env: {
      ...FAST_AUTH_ENV,
      RATE_LIMITS: 'true',
      RATE_LIMIT_READS: '4',
      RATE_LIMIT_TOKEN_PER_ADDRESS: '6',
      REDIS_URL: redisUrl ?? '',
      // A prefix of its own: parallel runs and other tests never share counters.
      RATE_LIMIT_REDIS_PREFIX: `test:${randomUUID()}:`,
    },
  });

  // A second server process: its own app and its own connection pool on the same database.
  const getSecond = useSecondApp(getApp);

  it('a partner’s reads on two app instances spend one budget', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau');
    const read = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/quotes/v2/brandau/quote/1', headers });
    const statuses = [];
    for (const app of [t.app, getSecond(), t.app, getSecond()]) statuses.push((await read(app)).statusCode);
    expect(statuses).toEqual([404, 404, 404, 404]);
    const limited = await read(getSecond());
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['ratelimit-policy']).toBe('"reads";q=4;w=60');
    expect((await read(t.app)).statusCode).toBe(429);
  });

  it('token requests from one address on two app instances spend one budget', async () => {
    const t = getApp();
    const from = { remoteAddress: '192.0.2.77' };
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? t.app : getSecond();
      expect((await postToken(app, partnerLogin(`user-${i}@x.test`, 'pw'), from)).statusCode).toBe(401);
    }
    const limited = await postToken(t.app, partnerLogin('user-7@x.test', 'pw'), from);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });
});

describe('an unreachable Redis', () => {
  const getApp = useTestApp({
    env: { ...FAST_AUTH_ENV, RATE_LIMITS: 'true', RATE_LIMIT_READS: '1', REDIS_URL: 'redis://127.0.0.1:1' },
  });

  it('does not stop or hang requests: they are served unlimited (and it is logged)', async () => {
    const t = getApp();
    const headers = await bearerFor(t, 'brandau');
    const started = performance.now();
    for (let i = 0; i < 3; i++) {
      const answer = await t.app.inject({ method: 'GET', url: '/quotes/v2/brandau/quote/1', headers });
      expect(answer.statusCode).toBe(404);
    }
    expect(performance.now() - started).toBeLessThan(scaled(10_000));
  });
});
