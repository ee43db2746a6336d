import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  DomainError,
  echoValue,
  type ErrorKind,
  UnknownBrand,
  Unauthenticated,
  Conflict,
  RateLimited,
  ShuttingDown,
  Unavailable,
} from '../kernel/errors.js';
import { databaseFault } from '../db/faults.js';
import type { StorageHealth } from '../db/storage-health.js';
import { requestCompletedLine } from '../logging/options.js';
import { schemaViolationToNotification } from './notifications.js';
import { redactCardNumbers, redactPath } from '../kernel/card-numbers/card-numbers.js';
import type { Notification } from '../kernel/notifications/notification.js';
import type { HttpMetrics } from './metrics.js';
import { keepPrivate } from './guards/private-answers.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import type { ErrorResponse } from './schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's body holds special-category data (health answers): its schema refusals name the
     * property but never repeat a value or an unknown key sent (checklist 51).
     */
    echoesNoValues?: boolean;
  }
}

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  'invalid-input': 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  unprocessable: 422,
  'rate-limited': 429,
  unavailable: 503,
};

/** The HTTP status of a domain error: the one mapping, which the console's pages use too. */
export const statusOfDomainError = (error: DomainError): number => STATUS_BY_KIND[error.kind];

/** Fastify's own client errors, renamed into the contract's vocabulary. */
const FRAMEWORK_ERRORS = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'This endpoint does not accept that Content-Type.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'MALFORMED_JSON',
    message: 'The body is empty but Content-Type is application/json.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: 'The body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'MALFORMED_REQUEST',
    message: 'Content-Length does not match the body.',
  },
  FST_ERR_CTP_INVALID_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'The Content-Type header is invalid.',
  },
} satisfies Record<string, { status: number; code: string; message: string }>;

/** A Notification with no card number in any of its texts (a message or property built from a path or header). */
function withoutCardNumbers(notification: Notification): Notification {
  const safe: Notification = {};
  for (const [key, value] of Object.entries(notification) as [keyof Notification, unknown][]) {
    if (typeof value === 'string') (safe as Record<string, unknown>)[key] = redactCardNumbers(value);
    else if (key === 'tokens' && value) {
      safe.tokens = Object.fromEntries(
        Object.entries(value as Record<string, string>).map(([name, text]) => [name, redactCardNumbers(text)]),
      );
    }
  }
  return safe;
}

/** The contract's error body; every error answer is built here, so none repeats a card number it was sent. */
export function envelope(errors: Notification[]): ErrorResponse {
  return { validation: { isValid: false, errors: errors.map(withoutCardNumbers) } };
}

/** OAuth's error body (RFC 6749 §5.2), which the token endpoint's path answers even below the endpoint. */
export function oauthErrorBody(
  description: string,
  error = 'invalid_request',
): { error: string; error_description: string } {
  return { error, error_description: redactCardNumbers(description) };
}

/** The Notification a domain error answers with (also each documented error's example). */
export function notificationOf(error: DomainError): Notification {
  const notification: Notification = { code: error.code, message: error.message };
  if (error.property !== undefined) notification.property = error.property;
  const value = echoValue(error.value);
  if (value !== undefined) notification.value = value;
  if (error.tokens) notification.tokens = error.tokens;
  return notification;
}

/** The Notification of a framework refusal (Fastify's error code), as `FRAMEWORK_ERRORS` renames it. */
export function frameworkNotification(fastifyCode: keyof typeof FRAMEWORK_ERRORS): Notification {
  const { code, message } = FRAMEWORK_ERRORS[fastifyCode];
  return { code, message };
}

/** What a 500 says: nothing of the fault, only the request id an operator finds the logged stack by. */
export const internalErrorNotification = (requestId: string): Notification => ({
  code: 'INTERNAL_ERROR',
  message: 'The server could not complete the request.',
  tokens: { requestId },
});

function sendDomainError(error: DomainError, reply: FastifyReply): FastifyReply {
  const notification = notificationOf(error);
  if (error instanceof Unauthenticated && error.challenge) reply.header('www-authenticate', error.challenge);
  if ((error instanceof Conflict || error instanceof Unavailable) && error.retryAfterSeconds !== undefined) {
    reply.header('retry-after', String(error.retryAfterSeconds));
  }
  // The connection goes with the process: the client must retry on a new one.
  if (error instanceof ShuttingDown) reply.header('connection', 'close');
  if (error instanceof RateLimited) reply.headers(error.headers);
  return reply.status(STATUS_BY_KIND[error.kind]).send(envelope([notification]));
}

function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.validation) {
    const params = error.validationContext === 'params';
    const brand = params && error.validation.find((v) => v.instancePath === '/brandCode');
    if (brand)
      return sendDomainError(new UnknownBrand(String((request.params as Record<string, unknown>).brandCode)), reply);
    const echoValues = request.routeOptions.config.echoesNoValues !== true;
    return reply
      .status(400)
      .send(envelope(error.validation.map((v) => schemaViolationToNotification(v, { echoValues }))));
  }
  const known = (FRAMEWORK_ERRORS as Record<string, { status: number; code: string; message: string }>)[error.code];
  if (known) return reply.status(known.status).send(envelope([{ code: known.code, message: known.message }]));
  if (error instanceof SyntaxError) {
    return reply.status(400).send(envelope([{ code: 'MALFORMED_JSON', message: 'The body is not valid JSON.' }]));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.status(status).send(envelope([{ code: 'BAD_REQUEST', message: error.message }]));
  }
  // Never show internals: the request id lets an operator find the logged stack.
  request.log.error({ err: error }, 'request failed');
  return reply.status(500).send(envelope([internalErrorNotification(request.id)]));
}

/** The single place where errors become HTTP answers; storage refusals are noted for readiness. */
export function registerErrorHandling(app: FastifyInstance, storage: StorageHealth): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      if (STATUS_BY_KIND[error.kind] >= 500) request.log.warn({ err: error }, 'dependency unavailable');
      return sendDomainError(error, reply);
    }
    // A client that hung up mid-upload: its request stream failed ("aborted", ECONNRESET), not the database.
    if (request.raw.readableAborted) {
      request.log.info({ code: error.code }, 'client aborted the request');
      return reply
        .status(400)
        .send(envelope([{ code: 'REQUEST_ABORTED', message: 'The client aborted the request.' }]));
    }
    // A lost, unreachable or overloaded database is a 503 the client may retry, not a fault of ours.
    const fault = databaseFault(error);
    if (fault) {
      storage.noteFailure(error);
      request.log.warn({ err: error }, 'database unavailable');
      return sendDomainError(fault, reply);
    }
    return handleFrameworkError(error, request, reply);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(
      envelope([
        {
          code: 'ROUTE_NOT_FOUND',
          message: `No endpoint answers ${request.method} ${redactPath(request.url)}.`,
        },
      ]),
    ),
  );
}

/**
 * Errors Fastify raises before routing (its `frameworkErrors` option), in the contract's words.
 * Fastify's own bodies echoed the whole URL, query string included. The malformed text is never
 * repeated here, and no hook runs on this path, so the request id, `Cache-Control`, metric and log
 * line are added here.
 */
const PRE_ROUTING_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'MALFORMED_URL',
    message: 'The URL holds a malformed percent-encoding (every % must be followed by two hex digits of UTF-8).',
  },
  // 414 rather than 404: the path has an endpoint's shape, but one segment is longer than any
  // identifier of the contract, so the request is refused for its size, not for what it names.
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: 'PATH_SEGMENT_TOO_LONG',
    message: 'A path segment is longer than the server accepts (100 characters).',
  },
};

/** The Notification of a refusal before routing (Fastify's error code), as the server writes it. */
export function preRoutingNotification(fastifyCode: 'FST_ERR_BAD_URL' | 'FST_ERR_MAX_PARAM_LENGTH'): Notification {
  const known = PRE_ROUTING_ERRORS[fastifyCode];
  if (!known) throw new Error(`No pre-routing refusal for ${fastifyCode}.`);
  return { code: known.code, message: known.message };
}

/** Paths whose failures use OAuth's `{error, error_description}` body (the token endpoint). */
export interface OAuthPaths {
  readonly oauthPath: RegExp;
}

export function frameworkErrorHandler(metrics: Pick<HttpMetrics, 'record'>, { oauthPath }: OAuthPaths) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const known = PRE_ROUTING_ERRORS[error.code];
    const notification: Notification = known
      ? { code: known.code, message: known.message }
      : internalErrorNotification(request.id);
    if (!known) request.log.error({ err: error }, 'request failed before routing');
    const oauth = oauthPath.test(request.url.split('?', 1)[0] ?? '');
    reply.raw.once('finish', () => {
      metrics.record(request.method, 'unmatched', reply.statusCode, reply.elapsedTime);
      request.log.info(
        requestCompletedLine(request, reply.statusCode, undefined, reply.elapsedTime),
        'request completed',
      );
    });
    const body = !oauth
      ? envelope([notification])
      : known
        ? oauthErrorBody(known.message)
        : oauthErrorBody(`The server could not complete the request (request id ${request.id}).`, 'server_error');
    keepPrivate(reply);
    void reply
      .header(REQUEST_ID_HEADER, request.id)
      .status(known?.status ?? 500)
      .send(body);
  };
}
