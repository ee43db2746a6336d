import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { clientAddressOf } from '../../src/http/client-address.js';
import { loggerOptions } from '../../src/logging/options.js';
import { buildTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { configProblemsOf } from '../helpers/config-problems.js';

describe('TRUST_PROXY', () => {
  it('believes nobody by default, and takes a hop count or addresses and ranges', () => {
    expect(loadConfig({}).trustedProxies).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustedProxies).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::1' }).trustedProxies).toEqual([
      'loopback',
      '10.0.0.0/8',
      '2001:db8::1',
    ]);
  });

  it('refuses "true" (any client could forge its address) and anything that is not an address', () => {
    expect(configProblemsOf({ TRUST_PROXY: 'true' })).toEqual([expect.stringMatching(/^TRUST_PROXY: .*forge/)]);
    expect(configProblemsOf({ TRUST_PROXY: '10.0.0.0/33,proxy.internal' })).toEqual([
      expect.stringMatching(/^TRUST_PROXY: .*2 entries/),
    ]);
  });

  it('gives the front cache the same client address Fastify gives request.ip', () => {
    const req = (socket: string, forwarded?: string) =>
      ({
        socket: { remoteAddress: socket },
        headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
        connection: { remoteAddress: socket },
      }) as unknown as IncomingMessage;
    expect(clientAddressOf(false)(req('10.0.0.5', '203.0.113.9'))).toBe('10.0.0.5');
    expect(clientAddressOf(['10.0.0.0/8'])(req('10.0.0.5', '203.0.113.9'))).toBe('203.0.113.9');
    // A client cannot hide behind an address it writes itself: only the trusted hop is skipped.
    expect(clientAddressOf(['10.0.0.0/8'])(req('10.0.0.5', '198.51.100.1, 203.0.113.9'))).toBe('203.0.113.9');
    expect(clientAddressOf(['10.0.0.0/8'])(req('192.0.2.7', '203.0.113.9'))).toBe('192.0.2.7');
    expect(clientAddressOf(1)(req('192.0.2.7', '203.0.113.9'))).toBe('203.0.113.9');
  });
});

describe(`the client address behind a trusted proxy (${DIALECT})`, () => {
  async function loggedAddress(env: Record<string, string>): Promise<unknown> {
    const lines: { remoteAddress?: string; req?: { remoteAddress?: string } }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as never);
        done();
      },
    });
    const logger = { ...loggerOptions(loadConfig({ LOG_LEVEL: 'info' })), stream };
    const t = await buildTestApp({ env, appOptions: { logger } });
    try {
      const answer = await t.app.inject({
        method: 'GET',
        url: '/no-such-page',
        headers: { 'x-forwarded-for': '203.0.113.9' },
        remoteAddress: '127.0.0.1',
      });
      expect(answer.statusCode).toBe(404);
    } finally {
      await t.close();
    }
    const line = lines.find((l) => (l.remoteAddress ?? l.req?.remoteAddress) !== undefined);
    return line?.remoteAddress ?? line?.req?.remoteAddress;
  }

  it('logs the forwarded address only when the proxy is trusted', async () => {
    expect(await loggedAddress({})).toBe('127.0.0.1');
    expect(await loggedAddress({ TRUST_PROXY: 'loopback' })).toBe('203.0.113.9');
  });
});
