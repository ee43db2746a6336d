import type { TSchema } from 'typebox';
import { DatabaseUnavailable } from '../db/faults.js';
import { RateLimited, UnknownBrand, type DomainError } from '../kernel/errors.js';
import type { Notification } from '../kernel/notifications/notification.js';
import {
  frameworkNotification,
  internalErrorNotification,
  notificationOf,
  statusOfDomainError,
} from './error-handler.js';
import { IdempotencyKeyReused } from './idempotency/errors.js';
import { ErrorResponse } from './schemas.js';

/**
 * The error answers a route documents: the common envelope, the status's meaning, and as its
 * example what the server really answers (a route's own domain errors, else the server's refusal).
 */

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter.',
  401: 'No valid bearer token.',
  403: 'The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`).',
  404: 'Unknown brand, route or resource (also when the resource belongs to another partner).',
  409: 'The request conflicts with the current state.',
  413: 'The body is larger than the server accepts.',
  415: 'The body is not of the media type this endpoint accepts.',
  422: 'Well-formed but not acceptable as it stands.',
  429: 'Too many requests; see `Retry-After`.',
  500: 'Unexpected server error; the body carries only the request id.',
  503: 'A dependency is unavailable; retry later.',
};

/** The example a documented error shows: the envelope of the Notifications the server sends. */
const errorExample = (...notifications: Notification[]) => ({ validation: { isValid: false, errors: notifications } });

/**
 * What an error status shows when the route names no error of its own: the server's own refusals.
 * 400 is filled from the operation's own parameters and body (http/openapi/shared.ts), 401 and 403
 * by the bearer guard (auth/guard.ts); a 409 is always the route's own.
 */
const DEFAULT_EXAMPLES: Partial<Record<number, () => Notification>> = {
  404: () => notificationOf(new UnknownBrand('acme')),
  413: () => frameworkNotification('FST_ERR_CTP_BODY_TOO_LARGE'),
  415: () => frameworkNotification('FST_ERR_CTP_INVALID_MEDIA_TYPE'),
  422: () => notificationOf(new IdempotencyKeyReused()),
  429: () => notificationOf(new RateLimited('Too many quotes requests for partner DEMOA; retry after 12 s.', {})),
  500: () => internalErrorNotification('req-7f3a9c'),
  503: () => notificationOf(new DatabaseUnavailable()),
};

/**
 * Error responses a route documents, all with the common envelope: a status alone (its example is
 * the server's own refusal for it, `DEFAULT_EXAMPLES`), or a domain error the route throws (its
 * status from the one mapping, its example exactly what the server answers; several of one status
 * become named examples).
 */
export function errorResponses(...answers: (number | DomainError)[]): Record<number, TSchema> {
  const byStatus = new Map<number, Notification[]>();
  for (const answer of answers) {
    const status = typeof answer === 'number' ? answer : statusOfDomainError(answer);
    const known = byStatus.get(status) ?? [];
    if (typeof answer !== 'number') known.push(notificationOf(answer));
    byStatus.set(status, known);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, named] of byStatus) {
    const fallback = DEFAULT_EXAMPLES[status]?.();
    const notifications = named.length > 0 ? named : fallback ? [fallback] : [];
    // The envelope itself (one named schema); the status's meaning becomes the response description.
    responses[status] = {
      ...ErrorResponse,
      description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
      ...(notifications.length > 0 ? { examples: notifications.map((n) => errorExample(n)) } : {}),
    };
  }
  return responses;
}

/**
 * Gives the errors a hook answers for every route of a scope (the bearer guard's 401 and 403) as
 * the examples of those statuses where the route documents them and named no error of its own.
 */
export function withErrorExamples(response: unknown, errors: readonly DomainError[]): unknown {
  if (typeof response !== 'object' || response === null) return response;
  const documented = response as Record<number, { examples?: unknown } | undefined>;
  const filled: Record<number, unknown> = { ...documented };
  for (const error of errors) {
    const status = statusOfDomainError(error);
    const answer = documented[status];
    if (answer !== undefined && answer.examples === undefined)
      filled[status] = { ...answer, examples: [errorExample(notificationOf(error))] };
  }
  return filled;
}
