import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';

// Product reads answered from memory (http/front-cache/front-cache.ts, ahead of Fastify) must spend the same budget.
let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await buildTestApp({
    env: { DEMO_DATA: 'true', CATALOGUE_REFRESH_SECONDS: '60', RATE_LIMITS: 'true', RATE_LIMIT_READS: '4' },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

function get(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('cached product reads and request limits', () => {
  it('counts reads the front cache answers; past the budget Fastify answers 429', async () => {
    const headers = await bearerFor(t, 'brandau');
    const path = '/products/v1/brandau/brands';
    expect((await get(path, headers)).status).toBe(200); // Fastify answers and remembers it
    const before = t.app.frontCache.answered;
    for (let i = 0; i < 3; i++) expect((await get(path, headers)).status).toBe(200);
    expect(t.app.frontCache.answered).toBe(before + 3);

    const limited = await get(path, headers);
    expect(limited.status).toBe(429);
    expect(t.app.frontCache.answered).toBe(before + 3);
    expect(limited.headers['ratelimit-policy']).toBe('"reads";q=4;w=60');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['x-request-id']).toBeDefined();
    expect(JSON.parse(limited.body)).toMatchObject({ validation: { errors: [{ code: 'RATE_LIMITED' }] } });
  });

  it('another partner keeps its own budget, answered from memory', async () => {
    const headers = await bearerFor(t, 'brandau', 'B');
    expect((await get('/products/v1/brandau/brands', headers)).status).toBe(200); // Fastify verifies the new token
    const before = t.app.frontCache.answered;
    for (let i = 0; i < 3; i++) expect((await get('/products/v1/brandau/brands', headers)).status).toBe(200);
    expect(t.app.frontCache.answered).toBe(before + 3);
  });
});
