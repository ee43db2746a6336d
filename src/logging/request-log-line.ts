import type { FastifyBaseLogger } from 'fastify';
import { symbols, type Logger } from 'pino';
import { loggablePath } from './loggable-path.js';
import { redactSecrets, serializeRequest, userAgentOf } from './options.js';

/** What one request-completed line says, as the front cache knows it. */
export interface CompletedRequest {
  readonly id: string;
  /** The raw request target; the line carries its path only. */
  readonly url: string;
  readonly ip: string | undefined;
  readonly userAgent: string | undefined;
  readonly statusCode: number;
  readonly route: string;
  readonly elapsedMs: number;
}

export type RequestLineWriter = (request: CompletedRequest) => void;

interface PinoInternals {
  readonly [key: symbol]: unknown;
}

const q = JSON.stringify;
// Pino has it but does not type it: a child's `msgPrefix`, which would change the message.
const MSG_PREFIX = (symbols as unknown as Record<string, symbol>).msgPrefixSym ?? Symbol('unknown');

/**
 * Writes a GET request's "request completed" line straight to the logger's stream: the bytes pino
 * writes for `log.info({ reqId, ...requestCompletedLine(...) }, 'request completed')`, built as one
 * string. Pino's way walks the object for secrets (there are none in it), runs the request
 * serializer and stringifies each value: most of the line's ~4 µs, a tenth of an answer from the
 * front cache (docs/performance.md). Only for a pino logger configured by `loggerOptions` (tests
 * compare the two lines); for any other logger undefined, and the caller logs the usual way.
 */
export function directRequestLineWriter(log: FastifyBaseLogger): RequestLineWriter | undefined {
  const pino = log as unknown as PinoInternals;
  const formatters = pino[symbols.formattersSym] as { log?: unknown } | undefined;
  const serializers = pino[symbols.serializersSym] as Record<string, unknown> | undefined;
  const stringifiers = pino[symbols.stringifiersSym] as Record<string | symbol, unknown> | undefined;
  const hooks = pino[symbols.hooksSym] as { streamWrite?: unknown } | undefined;
  const stream = pino[symbols.streamSym] as { write(line: string): unknown; [key: symbol]: unknown } | undefined;
  const standard =
    stream !== undefined &&
    formatters?.log === redactSecrets &&
    serializers?.req === serializeRequest &&
    stringifiers !== undefined &&
    Reflect.ownKeys(stringifiers).length === 0 &&
    hooks?.streamWrite === undefined &&
    pino[symbols.mixinSym] === undefined &&
    pino[symbols.nestedKeySym] == null &&
    pino[symbols.messageKeySym] === 'msg' &&
    pino[MSG_PREFIX] === undefined &&
    stream[symbols.needsMetadataGsym] !== true;
  if (!standard) return undefined;
  const levels = pino[symbols.lsCacheSym] as Record<number, string>;
  const time = pino[symbols.timeSym] as () => string;
  const chindings = pino[symbols.chindingsSym] as string;
  const end = pino[symbols.endSym] as string;
  return (request) => {
    if (!(log as unknown as Logger).isLevelEnabled('info')) return;
    const id = q(request.id);
    const userAgent = userAgentOf(request.userAgent);
    const optional =
      (request.ip === undefined ? '' : `,"remoteAddress":${q(request.ip)}`) +
      (userAgent === undefined ? '' : `,"userAgent":${q(userAgent)}`);
    stream.write(
      `${levels[30]}${time.call(pino)}${chindings},"reqId":${id},"req":{"id":${id},"method":"GET","path":${q(loggablePath(request.url))}${optional}}` +
        `,"statusCode":${request.statusCode},"route":${q(request.route)},"responseTimeMs":${Math.round(request.elapsedMs * 100) / 100},"msg":"request completed"${end}`,
    );
  };
}
