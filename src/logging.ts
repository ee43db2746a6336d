import { LogController, type FastifyLoggerOptions, type FastifyReply, type FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';
import type { AppConfig } from './config.js';

/**
 * Paths pino blanks out wherever they appear in a logged object. Bodies are never logged by
 * the request logger; these catch the objects code logs on purpose.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  '*.password',
  '*.refresh_token',
  '*.access_token',
  '*.cardToken',
  '*.token',
  'password',
  'refresh_token',
  'access_token',
  'cardToken',
];

interface LoggableRequest {
  id: string;
  method: string;
  url: string;
  ip?: string;
  headers: Record<string, unknown>;
}

/** Pino options for the server: JSON lines, secrets redacted, query strings left out. */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>): FastifyLoggerOptions & LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    serializers: {
      // The path only: query strings may carry values partners should not have sent.
      req: (req: LoggableRequest) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
        remoteAddress: req.ip,
        userAgent: req.headers['user-agent'],
      }),
    },
  };
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
    const entry = {
      req: request,
      statusCode: reply.statusCode,
      route: request.routeOptions.url,
      responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) request.log.error({ ...entry, err: error }, 'request errored');
    else request.log.info(entry, 'request completed');
  }
}
