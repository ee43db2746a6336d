import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FrontCache,
  serverWithFrontCache,
  type FrontCacheDeps,
  type RememberedRead,
} from '../../src/http/front-cache/front-cache.js';

const READ: RememberedRead = {
  brandCode: 'brandau',
  route: '/products/v1/:brandCode/brands',
  versionId: 7,
  validUntilMs: 2_000,
  response: {
    payload: Buffer.from('{"code":"brandau"}'),
    etag: '"abc"',
    maxAgeSeconds: 60,
    contentType: 'application/json; charset=utf-8',
  },
};

function depsWith(overrides: Partial<FrontCacheDeps> = {}): FrontCacheDeps & { logged: unknown[]; counted: unknown[] } {
  const logged: unknown[] = [];
  const counted: unknown[] = [];
  const log = {
    info: (o: unknown) => logged.push(o),
    error: (o: unknown) => logged.push(o),
  } as unknown as FrontCacheDeps['log'];
  return {
    log,
    logCompleted: (line) => logged.push(line),
    clientAddressOf: (req) => req.socket.remoteAddress,
    metrics: { record: (...args: unknown[]) => counted.push(args) },
    accepting: () => true,
    freshCatalogueVersion: () => 7,
    callerOf: (authorization) =>
      authorization === 'Bearer good' ? { brandCode: 'brandau', partnerCode: 'PARTNERA' } : undefined,
    nowMs: () => 1_000,
    logged,
    counted,
    ...overrides,
  };
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server whose fallback (standing in for Fastify) answers 299 "fallback". */
async function serve(cache: FrontCache): Promise<string> {
  const factory = serverWithFrontCache(cache);
  server = factory((_req, res) => res.writeHead(299).end('fallback'), {
    keepAliveTimeout: 5_000,
    requestTimeout: 10_000,
    connectionTimeout: 0,
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('FrontCache', () => {
  it('answers only a remembered GET for a vouched caller of the same brand, version and day', async () => {
    const cache = new FrontCache();
    const deps = depsWith();
    cache.connect(deps);
    cache.remember('/p?x=1', READ);
    const origin = await serve(cache);
    const hit = await fetch(`${origin}/p?x=1`, { headers: { authorization: 'Bearer good' } });
    expect(hit.status).toBe(200);
    expect(await hit.text()).toBe('{"code":"brandau"}');
    expect(hit.headers.get('etag')).toBe('"abc"');
    expect(hit.headers.get('cache-control')).toBe('private, max-age=60');
    const notModified = await fetch(`${origin}/p?x=1`, {
      headers: { authorization: 'Bearer good', 'if-none-match': '"abc"' },
    });
    expect(notModified.status).toBe(304);
    expect(deps.counted).toEqual([
      ['GET', READ.route, 200, expect.any(Number)],
      ['GET', READ.route, 304, expect.any(Number)],
    ]);
    for (const [path, init] of [
      ['/p?x=2', { headers: { authorization: 'Bearer good' } }],
      ['/p?x=1', { headers: { authorization: 'Bearer other' } }],
      ['/p?x=1', {}],
      ['/p?x=1', { method: 'POST', headers: { authorization: 'Bearer good' }, body: '{}' }],
    ] as const) {
      expect((await fetch(`${origin}${path}`, init)).status, `${path} ${JSON.stringify(init)}`).toBe(299);
    }
    expect(cache.answered).toBe(2);
  });

  it('leaves the request to the fallback when the catalogue moved on, the day ended or the app drains', async () => {
    for (const overrides of [
      { freshCatalogueVersion: () => 8 },
      { freshCatalogueVersion: () => undefined },
      { nowMs: () => 2_000 },
      { accepting: () => false },
    ]) {
      const cache = new FrontCache();
      cache.connect(depsWith(overrides));
      cache.remember('/p', READ);
      const origin = await serve(cache);
      expect((await fetch(`${origin}/p`, { headers: { authorization: 'Bearer good' } })).status).toBe(299);
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    }
  });

  it('survives its own faults: before sending, the fallback answers; after, the answer stands', async () => {
    const broken = () => {
      throw new Error('broke');
    };
    for (const [overrides, status] of [
      [{ nowMs: broken }, 299],
      [{ metrics: { record: broken } }, 200],
    ] as const) {
      const cache = new FrontCache();
      const deps = depsWith(overrides);
      cache.connect(deps);
      cache.remember('/p', READ);
      const origin = await serve(cache);
      const res = await fetch(`${origin}/p`, { headers: { authorization: 'Bearer good' } });
      expect(res.status).toBe(status);
      expect(await res.text()).toBe(status === 200 ? '{"code":"brandau"}' : 'fallback');
      expect(deps.logged).toEqual([expect.objectContaining({ path: '/p' })]);
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    }
  });

  it('keeps at most its capacity, dropping the oldest URL', () => {
    const cache = new FrontCache(2);
    cache.remember('/a', READ);
    cache.remember('/b', READ);
    cache.remember('/c', READ);
    expect(cache.size).toBe(2);
  });
});
