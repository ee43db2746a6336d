import fc from 'fast-check';
import type { FastifyBaseLogger } from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, requestCompletedLine } from './options.js';
import { directRequestLineWriter, type CompletedRequest } from './request-log-line.js';

function capturingLogger(options: object) {
  const lines: string[] = [];
  const stream = { write: (line: string) => lines.push(line) };
  const log = pino(
    { ...(options as LoggerOptions), timestamp: () => ',"time":1764000000000' },
    stream,
  ) as unknown as FastifyBaseLogger;
  return { log, lines };
}

const text = fc.string({ unit: 'binary', maxLength: 120 });
const completed: fc.Arbitrary<CompletedRequest> = fc.record({
  id: text,
  url: fc.oneof(
    text,
    fc.tuple(text, text).map(([path, query]) => `${path}?${query}`),
  ),
  ip: fc.option(text, { nil: undefined }),
  userAgent: fc.option(text, { nil: undefined }),
  statusCode: fc.constantFrom(200, 304),
  route: text,
  elapsedMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
});

describe('directRequestLineWriter', () => {
  it('writes the bytes pino writes for the same request line', () => {
    const viaPino = capturingLogger(loggerOptions({ logLevel: 'info' }));
    const direct = capturingLogger(loggerOptions({ logLevel: 'info' }));
    const write = directRequestLineWriter(direct.log)!;
    expect(write).toBeDefined();
    fc.assert(
      fc.property(completed, (request) => {
        const loggable = {
          id: request.id,
          method: 'GET',
          url: request.url,
          ip: request.ip,
          headers: { 'user-agent': request.userAgent },
        };
        viaPino.log.info(
          {
            reqId: request.id,
            ...requestCompletedLine(loggable, request.statusCode, request.route, request.elapsedMs),
          },
          'request completed',
        );
        write(request);
        expect(direct.lines.pop()).toBe(viaPino.lines.pop());
      }),
    );
  });

  it('writes nothing when info is not logged', () => {
    const { log, lines } = capturingLogger(loggerOptions({ logLevel: 'warn' }));
    directRequestLineWriter(log)!({
      id: 'r1',
      url: '/p',
      ip: undefined,
      userAgent: undefined,
      statusCode: 200,
      route: '/p',
      elapsedMs: 1,
    });
    expect(lines).toEqual([]);
  });

  it('declines a logger configured otherwise, whose lines it could not reproduce', () => {
    expect(directRequestLineWriter(capturingLogger({}).log)).toBeUndefined();
    expect(
      directRequestLineWriter(capturingLogger({ ...loggerOptions({ logLevel: 'info' }), messageKey: 'message' }).log),
    ).toBeUndefined();
    expect(
      directRequestLineWriter(capturingLogger({ ...loggerOptions({ logLevel: 'info' }), mixin: () => ({ a: 1 }) }).log),
    ).toBeUndefined();
    expect(
      directRequestLineWriter(capturingLogger({ ...loggerOptions({ logLevel: 'info' }), base: { service: 'x' } }).log),
    ).toBeDefined();
  });
});
