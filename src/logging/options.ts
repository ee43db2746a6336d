import { LogController, type FastifyLoggerOptions, type FastifyReply, type FastifyRequest } from 'fastify';
import { stdSerializers, type LoggerOptions } from 'pino';
import type { AppConfig } from '../config/config.js';
import { containsCardNumber, redactCardNumbers } from '../kernel/card-numbers/card-numbers.js';
import { loggablePath } from './loggable-path.js';

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
  'secretKey',
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
 * The logged object with every secret key's value blanked and card numbers in strings redacted; the caller's object is never
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
    else if (typeof inner === 'string') safe = redactCardNumbers(inner);
    else if (depth < MAX_DEPTH && isPlainObject(inner)) safe = withoutSecrets(inner, depth + 1);
    else if (depth < MAX_DEPTH && Array.isArray(inner)) {
      const items = inner.map((item: unknown) =>
        isPlainObject(item)
          ? withoutSecrets(item, depth + 1)
          : typeof item === 'string'
            ? redactCardNumbers(item)
            : item,
      );
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

/**
 * The request's fields a log line carries: the path only, since query strings may carry values
 * partners should not have sent, and no card number in the path or the user agent.
 */
export const serializeRequest = (req: LoggableRequest) => ({
  id: req.id,
  method: req.method,
  path: loggablePath(req.url),
  remoteAddress: req.ip,
  userAgent: userAgentOf(req.headers['user-agent']),
});

/** A user agent as logs and tables keep it: no card number. */
export function userAgentOf(header: unknown): string | undefined {
  return typeof header === 'string' ? redactCardNumbers(header) : undefined;
}

/** Strings anywhere in a serialized error (message, stack, causes), redacted; raw request bytes dropped. */
function redactDeep(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactCardNumbers(value);
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // Node's clientError carries the request's raw bytes (URL and headers as sent).
    if (key === 'rawPacket') continue;
    copy[key] = SECRET_KEYS.has(key) ? CENSOR : redactDeep(inner, depth + 1);
  }
  return copy;
}

/** pino's error serializer, then no card number in any of its strings (a message built from a path, a header). */
export const serializeError = (error: Error): ReturnType<typeof stdSerializers.err> =>
  redactDeep(stdSerializers.err(error), 1) as ReturnType<typeof stdSerializers.err>;

/** A line's message: constant by habit, but one built from a value must not carry a card number. */
export const serializeMessage = (message: unknown): unknown =>
  typeof message === 'string' && message.length >= 13 && containsCardNumber(message)
    ? redactCardNumbers(message)
    : message;

/** Pino options for the server: JSON lines, secrets and card numbers redacted, query strings left out. */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>): FastifyLoggerOptions & LoggerOptions {
  return {
    level: config.logLevel,
    formatters: { log: redactSecrets },
    serializers: { req: serializeRequest, err: serializeError, msg: serializeMessage },
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
