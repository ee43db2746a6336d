import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { loggerOptions } from '../../src/logging.js';
import { createTestDatabase, DIALECT } from '../helpers/database.js';

describe(`request logs (${DIALECT})`, () => {
  it('carry the request id and redact credentials and query strings', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const database = await createTestDatabase();
    const config = { ...loadConfig({ LOG_LEVEL: 'info' }), database: database.database };
    const app = await buildApp({ config, db: database.db, clock: () => new Date() }, { logger: { ...loggerOptions(config), stream } });
    app.get('/echo-log', (request) => {
      // Code that logs an object with secrets in it still leaks nothing.
      request.log.info({ password: 'pw-SECRET-1', refresh_token: 'rt-SECRET-2', cardToken: 'ct-SECRET-3' }, 'probe');
      return { ok: true };
    });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/echo-log?refresh_token=rt-SECRET-4',
        headers: { authorization: 'Bearer at-SECRET-5', 'x-request-id': 'trace-12345678' },
      });
      expect(res.statusCode).toBe(200);
      const all = lines.join('\n');
      expect(all).not.toMatch(/SECRET/);
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(entries.filter((e) => e.reqId === 'trace-12345678')).toHaveLength(2);
      expect(entries.find((e) => e.msg === 'request completed')).toMatchObject({
        req: { method: 'GET', path: '/echo-log' },
        statusCode: 200,
        route: '/echo-log',
      });
      expect(entries.find((e) => e.msg === 'probe')).toMatchObject({ password: '[REDACTED]', refresh_token: '[REDACTED]' });
    } finally {
      await app.close();
      await database.destroy();
    }
  });
});
