import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  DomainError,
  echoValue,
  type ErrorKind,
  UnknownBrand,
  Unauthenticated,
  Conflict,
  RateLimited,
} from '../errors.js';
import { schemaViolationToNotification } from './notifications.js';
import type { Notification } from '../notifications/notification.js';
import type { ErrorResponse } from './schemas.js';

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

/** Fastify's own client errors, renamed into the contract's vocabulary. */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; message: string }> = {
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
};

export function envelope(errors: Notification[]): ErrorResponse {
  return { validation: { isValid: false, errors } };
}

function sendDomainError(error: DomainError, reply: FastifyReply): FastifyReply {
  const notification: Notification = { code: error.code, message: error.message };
  if (error.property !== undefined) notification.property = error.property;
  const value = echoValue(error.value);
  if (value !== undefined) notification.value = value;
  if (error.tokens) notification.tokens = error.tokens;
  if (error instanceof Unauthenticated && error.challenge) reply.header('www-authenticate', error.challenge);
  if (error instanceof Conflict && error.retryAfterSeconds !== undefined) {
    reply.header('retry-after', String(error.retryAfterSeconds));
  }
  if (error instanceof RateLimited) reply.headers(error.headers);
  return reply.status(STATUS_BY_KIND[error.kind]).send(envelope([notification]));
}

function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.validation) {
    const params = error.validationContext === 'params';
    const brand = params && error.validation.find((v) => v.instancePath === '/brandCode');
    if (brand)
      return sendDomainError(new UnknownBrand(String((request.params as Record<string, unknown>).brandCode)), reply);
    return reply.status(400).send(envelope(error.validation.map((v) => schemaViolationToNotification(v))));
  }
  const known = FRAMEWORK_ERRORS[error.code];
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
  return reply.status(500).send(
    envelope([
      {
        code: 'INTERNAL_ERROR',
        message: 'The server could not complete the request.',
        tokens: { requestId: request.id },
      },
    ]),
  );
}

/** The single place where errors become HTTP answers. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      if (STATUS_BY_KIND[error.kind] >= 500) request.log.warn({ err: error }, 'dependency unavailable');
      return sendDomainError(error, reply);
    }
    return handleFrameworkError(error, request, reply);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(
      envelope([
        {
          code: 'ROUTE_NOT_FOUND',
          message: `No endpoint answers ${request.method} ${request.url.split('?')[0] ?? ''}.`,
        },
      ]),
    ),
  );
}
