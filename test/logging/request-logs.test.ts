import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { checkAnswers } from '../helpers/contract/taps.js';
import { loadConfig } from '../../src/config/config.js';
import fc from 'fast-check';
import { SECRET_KEYS, loggerOptions, withoutSecrets } from '../../src/logging/options.js';
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
    const app = await buildApp(
      { config, db: database.db, clock: () => new Date() },
      { logger: { ...loggerOptions(config), stream } },
    );
    app.get('/echo-log', (request) => {
      // Code that logs an object with secrets in it still leaks nothing.
      request.log.info({ password: 'pw-SECRET-1', refresh_token: 'rt-SECRET-2', cardToken: 'ct-SECRET-3' }, 'probe');
      request.log.info(
        {
          purchase: { cardToken: 'ct-SECRET-6', items: [{ token: 'tk-SECRET-7' }] },
          raw: { headers: { authorization: 'Bearer at-SECRET-8' } },
        },
        'nested probe',
      );
      return { ok: true };
    });
    checkAnswers(app);
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
      expect(entries.filter((e) => e.reqId === 'trace-12345678')).toHaveLength(3);
      expect(entries.find((e) => e.msg === 'request completed')).toMatchObject({
        req: { method: 'GET', path: '/echo-log' },
        statusCode: 200,
        route: '/echo-log',
      });
      // The customer's document link is a bearer secret in the path: never logged.
      await app.inject({ method: 'GET', url: '/documents/v1/LinkSECRETvalue9/some-document' });
      expect(lines.join('\n')).not.toMatch(/SECRET/);
      expect(lines.join('\n')).toContain('/documents/v1/[link]/some-document');
      expect(entries.find((e) => e.msg === 'probe')).toMatchObject({
        password: '[REDACTED]',
        refresh_token: '[REDACTED]',
      });
    } finally {
      await app.close();
      await database.destroy();
    }
  });
});

describe('withoutSecrets', () => {
  it('blanks secret keys at any depth a log object nests them, and leaves the rest', () => {
    const logged = {
      purchaseId: 'p1',
      body: { cardToken: 'x', card: { token: 'y', last4: '4242' } },
      list: [{ password: 'z' }, 3],
    };
    expect(withoutSecrets(logged)).toEqual({
      purchaseId: 'p1',
      body: { cardToken: '[REDACTED]', card: { token: '[REDACTED]', last4: '4242' } },
      list: [{ password: '[REDACTED]' }, 3],
    });
    expect(logged.body.cardToken).toBe('x'); // the caller's object is not changed
  });

  it('returns the very object when it holds no secret (the request line)', () => {
    const line = { req: { id: 'r', method: 'GET' }, statusCode: 200 };
    expect(withoutSecrets(line)).toBe(line);
  });

  it('never lets a secret key’s value through, whatever the shape (property)', () => {
    const key = fc.oneof(fc.constantFrom(...SECRET_KEYS), fc.string({ maxLength: 6 }));
    const tree = fc.letrec((tie) => ({
      node: fc.dictionary(
        key,
        fc.oneof(fc.constant('SECRET-VALUE'), tie('node'), fc.array(tie('node'), { maxLength: 2 })),
        { maxKeys: 4 },
      ),
    })).node;
    fc.assert(
      fc.property(tree, (object) => {
        const leaks = (value: unknown, depth: number): boolean => {
          if (Array.isArray(value)) return value.some((item) => leaks(item, depth + 1));
          if (typeof value !== 'object' || value === null) return false;
          return Object.entries(value).some(
            ([k, v]) =>
              (depth <= 4 && SECRET_KEYS.has(k) && v !== '[REDACTED]' && v !== undefined) || leaks(v, depth + 1),
          );
        };
        expect(leaks(withoutSecrets(object), 1)).toBe(false);
      }),
    );
  });
});
