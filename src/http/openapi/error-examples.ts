import { DatabaseUnavailable } from '../../db/faults.js';
import { RateLimited } from '../../kernel/errors.js';
import type { Notification } from '../../kernel/notifications/notification.js';
import {
  frameworkNotification,
  internalErrorNotification,
  notificationOf,
  preRoutingNotification,
} from '../error-handler.js';
import { IdempotencyKeyReused, IdempotencyRequestInFlight } from '../idempotency/errors.js';
import { schemaViolationToNotification } from '../notifications.js';
import { clientErrorNotification } from '../server/client-errors.js';

/**
 * The examples of the error answers the document adds to every operation (shared.ts), each made by
 * the function that makes the real answer: a shared status's refusal, and an operation's own 400
 * from its own parameters and body (the Notification the validator would write).
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const errorEnvelope = (notification: Notification) => ({
  validation: { isValid: false, errors: [notification] },
});

/** A shared answer's example by status, in the common envelope. */
const SHARED_ERROR_EXAMPLES: Record<string, () => Notification> = {
  400: () => preRoutingNotification('FST_ERR_BAD_URL'),
  408: () => clientErrorNotification('ERR_HTTP_REQUEST_TIMEOUT'),
  409: () => notificationOf(new IdempotencyRequestInFlight(1)),
  413: () => frameworkNotification('FST_ERR_CTP_BODY_TOO_LARGE'),
  414: () => preRoutingNotification('FST_ERR_MAX_PARAM_LENGTH'),
  415: () => frameworkNotification('FST_ERR_CTP_INVALID_MEDIA_TYPE'),
  422: () => notificationOf(new IdempotencyKeyReused()),
  429: () => notificationOf(new RateLimited('Too many quotes requests for partner DEMOA; retry after 12 s.', {})),
  431: () => clientErrorNotification('HPE_HEADER_OVERFLOW'),
  500: () => internalErrorNotification('req-7f3a9c'),
  503: () => notificationOf(new DatabaseUnavailable()),
};

/** A shared answer's example (undefined for a status the server never shares). */
export function sharedErrorExample(status: string): Notification | undefined {
  return SHARED_ERROR_EXAMPLES[status]?.();
}

/** The token endpoint's shared answers in OAuth's body (RFC 6749 §5.2), by status. */
export const OAUTH_ERROR_EXAMPLES: Record<string, { error: string; error_description: string }> = {
  400: { error: 'invalid_request', error_description: 'The URL holds a malformed percent-encoding.' },
  408: { error: 'invalid_request', error_description: 'The request did not arrive in time.' },
  413: { error: 'invalid_request', error_description: 'The request body is too large.' },
  414: {
    error: 'invalid_request',
    error_description: 'A path segment is longer than the server accepts (100 characters).',
  },
  429: { error: 'temporarily_unavailable', error_description: 'Too many token requests; retry after 30 s.' },
  431: { error: 'invalid_request', error_description: 'The request headers are too large.' },
  500: { error: 'server_error', error_description: 'The server could not complete the request.' },
  503: { error: 'temporarily_unavailable', error_description: 'The database is unavailable; retry shortly.' },
};

function resolve(schema: unknown, document: { components: Json }): Json | undefined {
  if (!isObject(schema)) return undefined;
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const schemas = isObject(document.components.schemas) ? document.components.schemas : {};
  return resolve(schemas[name], document);
}

const violation = (keyword: string, path: string, params: Json, message: string, data?: unknown) =>
  schemaViolationToNotification({ keyword, instancePath: path, schemaPath: '', params, message, data });

const missing = (name: string) =>
  violation('required', '', { missingProperty: name }, `must have required property '${name}'`);

/** What the validator answers for a bad value of this parameter. */
function badPathValue(name: string, schema: Json): Notification {
  if (typeof schema.pattern === 'string')
    return violation('pattern', `/${name}`, { pattern: schema.pattern }, `must match pattern "${schema.pattern}"`, 'x');
  if (schema.type === 'integer') return violation('type', `/${name}`, { type: 'integer' }, 'must be integer', 'x');
  const limit = typeof schema.maxLength === 'number' ? schema.maxLength : 64;
  return violation('maxLength', `/${name}`, { limit }, `must NOT have more than ${limit} characters`);
}

/**
 * An operation's own 400: its body's first required property missing, else a required query
 * parameter missing, else a bad value of its own path parameter; else the shared malformed URL.
 */
export function validationExample(operation: Json, document: { components: Json }): Notification {
  const content = isObject(operation.requestBody) ? operation.requestBody.content : undefined;
  const media = isObject(content) ? Object.values(content)[0] : undefined;
  const body = isObject(media) ? resolve(media.schema, document) : undefined;
  const required = Array.isArray(body?.required) ? (body.required as string[]) : [];
  if (required[0] !== undefined) return missing(required[0]);
  const parameters = ((operation.parameters as unknown[] | undefined) ?? []).filter(isObject);
  const query = parameters.find((p) => p.in === 'query' && p.required === true);
  if (typeof query?.name === 'string') return missing(query.name);
  const path = parameters.filter((p) => p.in === 'path' && p.name !== 'brandCode').at(-1);
  if (typeof path?.name === 'string' && isObject(path.schema)) return badPathValue(path.name, path.schema);
  const choice = parameters.find((p) => p.in === 'query' && isObject(p.schema) && Array.isArray(p.schema.enum));
  if (typeof choice?.name === 'string' && isObject(choice.schema)) {
    const allowedValues = choice.schema.enum as unknown[];
    return violation('enum', `/${choice.name}`, { allowedValues }, 'must be equal to one of the allowed values', 'X');
  }
  const patterned = parameters.find((p) => p.in === 'query' && isObject(p.schema) && 'pattern' in p.schema);
  if (typeof patterned?.name === 'string' && isObject(patterned.schema))
    return badPathValue(patterned.name, patterned.schema);
  return preRoutingNotification('FST_ERR_BAD_URL');
}
