import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { loggerOptions } from '../../src/logging/options.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { rawExchange } from '../helpers/raw-http.js';

/** The real app on a real socket, a test-only JSON echo route, and every log line it writes. */
async function serve(): Promise<{ t: TestApp; port: number; logs: Record<string, unknown>[] }> {
  const logs: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const t = await buildTestApp({
    appOptions: { logger: { ...loggerOptions(loadConfig({ LOG_LEVEL: 'info' })), stream } },
    beforeReady(app) {
      app.post('/echo', (req) => ({ received: req.body }));
    },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, port: (t.app.server.address() as AddressInfo).port, logs };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  socket: object;
}

function send(
  port: number,
  agent: Agent,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, agent, path: options.path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, socket: req.socket! }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const codesOf = (body: string) =>
  (JSON.parse(body) as { validation: { errors: { code: string }[] } }).validation.errors.map((e) => e.code);

describe(`framework-level errors in the contract (${DIALECT})`, () => {
  it('431 says Connection: close, so a keep-alive client’s next request works on a new connection', async () => {
    const { t, port, logs } = await serve();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 10; i++) {
        const first = await send(port, agent, { path: '/health' });
        expect(first.status).toBe(200);
        const big = await send(port, agent, { path: '/health', headers: { 'x-big': 'a'.repeat(20_000) } });
        expect(big.status).toBe(431);
        expect(big.headers.connection).toBe('close');
        expect(big.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(codesOf(big.body)).toEqual(['HEADERS_TOO_LARGE']);
        const next = await send(port, agent, { path: '/health' });
        expect(next.status).toBe(200);
        expect(next.socket).not.toBe(big.socket);
      }
      const line = logs.find((l) => l.msg === 'client error');
      expect(line).toMatchObject({ statusCode: 431, code: 'HEADERS_TOO_LARGE', reason: 'HPE_HEADER_OVERFLOW' });
      const metrics = await send(port, agent, { path: '/metrics' });
      expect(metrics.body).toMatch(/http_requests_total\{method="UNKNOWN",route="unmatched",status_code="431"\} 10/);
    } finally {
      agent.destroy();
      await t.close();
    }
  });

  it('answers a request that is not HTTP with 400 MALFORMED_REQUEST and closes', async () => {
    const { t, port } = await serve();
    try {
      const answer = await rawExchange(
        port,
        (s) => void s.write('GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
      );
      expect(answer.status).toBe(400);
      expect(answer.headers.connection).toBe('close');
      expect(answer.headers['x-request-id']).toBeTruthy();
      expect(codesOf(answer.body)).toEqual(['MALFORMED_REQUEST']);
      expect(answer.ended).toBe('end');
    } finally {
      await t.close();
    }
  });

  it('malformed percent-encoding: 400 MALFORMED_URL in the contract body, never echoing the URL', async () => {
    const { t, port, logs } = await serve();
    const agent = new Agent({ keepAlive: true });
    try {
      for (const path of [
        '/products/v1/bra%ZZnd/brands?secret=4111111111111111',
        '/products/v1/%E0%A4%A/brands?secret=4111111111111111',
      ]) {
        const answer = await send(port, agent, { path, headers: { 'x-request-id': 'trace-bad-url-1' } });
        expect(answer.status).toBe(400);
        expect(answer.headers['x-request-id']).toBe('trace-bad-url-1');
        expect(codesOf(answer.body)).toEqual(['MALFORMED_URL']);
        expect(answer.body).not.toMatch(/secret|4111|ZZ|E0/);
      }
      const lines = logs.filter((l) => l.reqId === 'trace-bad-url-1');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ msg: 'request completed', statusCode: 400 });
      expect(JSON.stringify(lines)).not.toMatch(/secret|4111/);
      const metrics = await send(port, agent, { path: '/metrics' });
      expect(metrics.body).toMatch(/http_requests_total\{method="GET",route="unmatched",status_code="400"\} 2/);
    } finally {
      agent.destroy();
      await t.close();
    }
  });

  it('a path segment over 100 characters: 414 PATH_SEGMENT_TOO_LONG', async () => {
    const { t, port } = await serve();
    const agent = new Agent();
    try {
      const answer = await send(port, agent, { path: `/products/v1/${'b'.repeat(101)}/brands` });
      expect(answer.status).toBe(414);
      expect(answer.headers['x-request-id']).toBeTruthy();
      expect(codesOf(answer.body)).toEqual(['PATH_SEGMENT_TOO_LONG']);
      expect(answer.body).not.toMatch(/bbbb/);
    } finally {
      agent.destroy();
      await t.close();
    }
  });

  it('__proto__ or constructor.prototype in valid JSON: 400 FORBIDDEN_PROPERTY, not "not valid JSON"', async () => {
    const { t, port } = await serve();
    const agent = new Agent();
    const post = (body: string) =>
      send(port, agent, { path: '/echo', method: 'POST', headers: { 'content-type': 'application/json' }, body });
    try {
      for (const body of ['{"a":1,"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']) {
        const answer = await post(body);
        expect(answer.status).toBe(400);
        expect(answer.headers['x-request-id']).toBeTruthy();
        expect(codesOf(answer.body)).toEqual(['FORBIDDEN_PROPERTY']);
      }
      expect(codesOf((await post('{"a":')).body)).toEqual(['MALFORMED_JSON']);
      expect(JSON.parse((await post('{"a":{"b":[1]}}')).body)).toEqual({ received: { a: { b: [1] } } });
    } finally {
      agent.destroy();
      await t.close();
    }
  });
});
