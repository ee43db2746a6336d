import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { loggerOptions } from '../../src/logging/options.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';

interface RawAnswer {
  status: number;
  /** Header name/value pairs in the order sent, without the per-request ones. */
  headers: string[][];
  requestId: string | undefined;
  body: Buffer;
}

// 23:59:59 in Sydney on 15 May 2026 (UTC+10): the plan read without effectiveAt is "today's".
let now = new Date('2026-05-15T13:59:59.000Z').getTime();
const logLines: Record<string, unknown>[] = [];
let t: TestApp;
let origin: string;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const env = { DEMO_DATA: 'true', CATALOGUE_REFRESH_SECONDS: '60', LOG_LEVEL: 'info' };
  t = await buildTestApp({
    env,
    clock: () => new Date(now),
    appOptions: { logger: { ...loggerOptions(loadConfig(env)), stream } },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

function get(path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: string[][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({
          status: res.statusCode ?? 0,
          headers: pairs.filter(([name]) => name !== 'date' && name !== 'x-request-id'),
          requestId: res.headers['x-request-id'] as string | undefined,
          body: Buffer.concat(chunks),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same request twice: Fastify answers the first, the front cache (it must) the second. */
async function twice(path: string, headers: Record<string, string>): Promise<[RawAnswer, RawAnswer]> {
  const first = await get(path, headers);
  const before = t.app.frontCache.answered;
  const second = await get(path, headers);
  expect(t.app.frontCache.answered, `${path} answered from memory`).toBe(before + 1);
  return [first, second];
}

const PATHS = [
  '/products/v1/brandau/baseQuoteConfig?quoteType=SINGLETRIP',
  '/products/v1/brandau/plans?planCode=COMP',
  '/products/v1/brandau/plans?planCode=COMP&effectiveAt=2026-05-15&lang=en',
  '/products/v1/brandau/brands',
  '/products/v1/brandau/features/1001',
  '/products/v2/brandau/insuranceContract/1001/pdsSummary',
];

describe(`front cache for product reads (${DIALECT})`, () => {
  it('answers a repeated read with the bytes and headers Fastify sent', async () => {
    const auth = await bearerFor(t, 'brandau');
    for (const path of PATHS) {
      const [first, second] = await twice(path, auth);
      expect(first.status, path).toBe(200);
      expect(second.status).toBe(200);
      expect(second.headers).toEqual(first.headers);
      expect(second.body.equals(first.body)).toBe(true);
      expect(second.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(second.requestId).not.toBe(first.requestId);
    }
  });

  it('answers If-None-Match with the same 304, and keeps a caller request id', async () => {
    const auth = await bearerFor(t, 'brandau');
    const path = PATHS[0]!;
    const { headers } = await get(path, auth);
    const etag = headers.find(([name]) => name === 'etag')![1]!;
    const [first, second] = await twice(path, {
      ...auth,
      'if-none-match': `W/"other", ${etag}`,
      'x-request-id': 'trace-abcdef12',
    });
    expect(first.status).toBe(304);
    expect(second).toEqual(first);
    expect(second.requestId).toBe('trace-abcdef12');
  });

  it('logs and counts an answer from memory as Fastify does', async () => {
    const auth = await bearerFor(t, 'brandau');
    const path = '/products/v1/brandau/baseQuoteConfig?quoteType=MULTITRIP';
    const [first, second] = await twice(path, auth);
    const lineOf = (id: string | undefined) =>
      logLines.find((line) => line.reqId === id && line.msg === 'request completed');
    const fromFastify = lineOf(first.requestId)!;
    const fromMemory = lineOf(second.requestId)!;
    const comparable = (line: Record<string, unknown>) => ({
      ...line,
      time: 0,
      reqId: 0,
      responseTimeMs: 0,
      req: { ...(line.req as object), id: 0 },
    });
    expect(Object.keys(fromMemory)).toEqual(Object.keys(fromFastify));
    expect(comparable(fromMemory)).toEqual(comparable(fromFastify));
    expect(fromMemory).toMatchObject({
      statusCode: 200,
      route: '/products/v1/:brandCode/baseQuoteConfig',
      req: { path: '/products/v1/brandau/baseQuoteConfig' },
    });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    const series = metrics.body
      .split('\n')
      .find(
        (line) =>
          line.startsWith('http_requests_total{') &&
          line.includes('route="/products/v1/:brandCode/baseQuoteConfig"') &&
          line.includes('status_code="200"'),
      );
    expect(Number(series?.split(' ').pop())).toBeGreaterThanOrEqual(4);
  });

  it('leaves every other caller to the guard: no token, a bad token, another brand', async () => {
    const path = PATHS[0]!;
    await twice(path, await bearerFor(t, 'brandau'));
    const before = t.app.frontCache.answered;
    expect((await get(path, {})).status).toBe(401);
    expect((await get(path, { authorization: 'Bearer not.a.token' })).status).toBe(401);
    const brandnz = await bearerFor(t, 'brandnz');
    await get('/products/v1/brandnz/brands', brandnz); // verified and remembered for brandnz
    expect((await get(path, brandnz)).status).toBe(403);
    expect(t.app.frontCache.answered).toBe(before);
  });

  it("stops answering today's plan from memory at the brand's midnight", async () => {
    const auth = await bearerFor(t, 'brandau');
    const path = '/products/v1/brandau/plans?planCode=ESSE';
    await twice(path, auth);
    now = new Date('2026-05-15T14:00:00.500Z').getTime(); // 00:00:00.5 on the 16th in Sydney
    const before = t.app.frontCache.answered;
    expect((await get(path, auth)).status).toBe(200);
    expect(t.app.frontCache.answered).toBe(before);
    await twice(path, auth); // remembered again, until the next midnight
  });

  it('leaves requests to Fastify while draining, so they carry Connection: close', async () => {
    const auth = await bearerFor(t, 'brandau');
    const path = PATHS[3]!;
    await twice(path, auth);
    t.app.lifecycle.draining = true;
    try {
      const answer = await get(path, auth);
      expect(answer.headers).toContainEqual(['connection', 'close']);
    } finally {
      t.app.lifecycle.draining = false;
    }
  });
});
