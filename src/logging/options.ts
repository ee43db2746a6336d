import { LogController, type FastifyLoggerOptions, type FastifyReply, type FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';
import type { AppConfig } from '../config.js';

/** Keys whose values never reach a log line, at any depth a logged object nests them. */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'idempotency-key',
  'password',
  'refresh_token',
  'access_token',
  'cardToken',
  'token',
]);
const CENSOR = '[REDACTED]';
// Deep enough for { req: { headers: { authorization } } }; log objects are flat by habit.
const MAX_DEPTH = 4;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * The logged object with every secret key's value blanked; the caller's object is never
 * changed and is returned as is when it holds no secret (the request line, every time).
 * Instead of pino's wildcard `redact` paths: those cost ~5 µs on every line, half the
 * request log's price and ~10 % of a cached product read (docs/performance.md); a walk over
 * the keys costs a fraction of a microsecond. Class instances (requests, errors) are left to
 * their serializers, which pick safe fields.
 */
export function withoutSecrets(value: Record<string, unknown>, depth = 1): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const inner = value[key];
    let safe: unknown = inner;
    if (SECRET_KEYS.has(key) && inner !== undefined) safe = CENSOR;
    else if (depth < MAX_DEPTH && isPlainObject(inner)) safe = withoutSecrets(inner, depth + 1);
    else if (depth < MAX_DEPTH && Array.isArray(inner)) {
      const items = inner.map((item: unknown) => (isPlainObject(item) ? withoutSecrets(item, depth + 1) : item));
      if (items.some((item, i) => item !== inner[i])) safe = items;
    }
    if (safe !== inner) {
      copy ??= { ...value };
      copy[key] = safe;
    }
  }
  return copy ?? value;
}

export interface LoggableRequest {
  id: string;
  method: string;
  url: string;
  ip?: string;
  headers: Record<string, unknown>;
}

/** The log formatter: every line's object without its secrets. */
export const redactSecrets = (object: Record<string, unknown>): Record<string, unknown> => withoutSecrets(object);

/** The request's fields a log line carries: the path only, since query strings may carry values partners should not have sent. */
export const serializeRequest = (req: LoggableRequest) => ({
  id: req.id,
  method: req.method,
  path: pathOf(req.url),
  remoteAddress: req.ip,
  userAgent: req.headers['user-agent'],
});

export const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** Pino options for the server: JSON lines, secrets redacted, query strings left out. */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>): FastifyLoggerOptions & LoggerOptions {
  return {
    level: config.logLevel,
    formatters: { log: redactSecrets },
    serializers: { req: serializeRequest },
  };
}

/** The fields of the one line logged per answered request (also by the front cache, which answers outside Fastify). */
export function requestCompletedLine(
  req: LoggableRequest,
  statusCode: number,
  route: string | undefined,
  elapsedMs: number,
) {
  return { req, statusCode, route, responseTimeMs: Math.round(elapsedMs * 100) / 100 };
}

/**
 * One line per request, written when it is answered (method, path without query, route,
 * status, duration), instead of Fastify's two lines (incoming and completed).
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {
    // Nothing: the completed line says everything.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const entry = requestCompletedLine(request, reply.statusCode, request.routeOptions.url, reply.elapsedTime);
    if (error) request.log.error({ ...entry, err: error }, 'request errored');
    else request.log.info(entry, 'request completed');
  }
}
