import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { until } from '../helpers/polling.js';
import { loggerOptions } from '../../src/logging/options.js';
import { loadConfig } from '../../src/config/config.js';

describe(`a client that aborts its upload (${DIALECT})`, () => {
  it('is logged as an aborted request, never as "database unavailable"', async () => {
    const lines: { msg?: string; level?: number }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as never);
        done();
      },
    });
    const logger = { ...loggerOptions(loadConfig({ LOG_LEVEL: 'info' })), stream };
    let arrived = 0;
    const t = await buildTestApp({
      env: { DEMO_DATA: 'true' },
      appOptions: { logger },
      beforeReady: (app) => {
        app.addHook('preParsing', (_request, _reply, payload, done) => {
          arrived += 1;
          done(null, payload);
        });
      },
    });
    try {
      const { authorization } = await bearerFor(t, 'brandau', 'A');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /quotes/v2/brandau/quotes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"quoteType":"SINGLE',
      );
      // The server has begun reading the body: hang up.
      await until(() => arrived > 0, 'the server to start reading the body');
      socket.destroy();
      await until(() => lines.some((l) => l.msg === 'client aborted the request'), 'the abort to be logged');
      expect(lines.filter((l) => l.msg === 'database unavailable')).toEqual([]);
      expect(lines.filter((l) => (l.level ?? 0) >= 40)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
