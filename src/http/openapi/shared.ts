import type { FastifySchema } from 'fastify';
import { emptyBodyAsObject } from '../guards/empty-body.js';
import { isStoredStatus } from '../idempotency/service.js';
import type { OpenApiDocument } from './document.js';
import { errorEnvelope, OAUTH_ERROR_EXAMPLES, sharedErrorExample, validationExample } from './error-examples.js';

/**
 * What every operation shares, added to the generated document in one place so no route can
 * forget it: the headers every answer carries, the framework-level errors any request can meet
 * (timeouts, sizes, limits, faults) and the request headers a route's hooks read.
 */

type Json = Record<string, unknown>;

/** The security scheme of the bearer guard; auth/guard.ts `protectWithBearer` declares it on every route it guards. */
export const BEARER_SCHEME = 'bearerAuth';
const ref = (kind: 'headers' | 'responses' | 'schemas', name: string) => ({ $ref: `#/components/${kind}/${name}` });
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const SHARED_HEADERS: Json = {
  'X-Request-Id': {
    description:
      'On every answer: the request id of the log line (the inbound `X-Request-Id` when it is a safe token, else a generated one).',
    required: true,
    schema: { type: 'string', maxLength: 64, example: 'req-7f3a9c' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0, example: 1 },
  },
  'RateLimit-Policy': {
    description:
      'IETF draft-ietf-httpapi-ratelimit-headers: the limit that refused the request, e.g. `"quotes";q=150;w=60`. Sent on 429 answers only.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'IETF draft RateLimit: remaining quota and seconds to reset, e.g. `"quotes";r=0;t=12`. Sent on 429 only.',
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description:
      'RFC 6750 Bearer challenge (`Basic` on the token endpoint after HTTP Basic client authentication; `Bearer realm="metrics"` on /metrics).',
    schema: { type: 'string', example: 'Bearer realm="partner-api", error="invalid_token"' },
  },
  'Cache-Control': {
    description:
      'On every answer: `private, max-age=<expirySeconds>` on product reads, `private, no-store` on a policy document, `no-store` on everything else (personal data, tokens, errors).',
    required: true,
    schema: { type: 'string', example: 'no-store' },
  },
  Pragma: {
    description: '`no-cache` beside `Cache-Control: no-store`, for HTTP/1.0 caches.',
    schema: { type: 'string', enum: ['no-cache'] },
  },
  ETag: {
    description: 'Entity tag of the answer; send it back in `If-None-Match` to get 304 while it is current.',
    required: true,
    schema: { type: 'string', example: '"k2v9cZbqU3nQ0cX0y0V5o1pWm8s"' },
  },
  'Idempotent-Replayed': {
    description:
      '`true` on an answer replayed for a repeated `Idempotency-Key`: the stored answer of the first request; nothing ran again.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** Shared error answers by status; the token endpoint gets the same statuses in its OAuth body. */
const SHARED_ERRORS: Record<
  string,
  { description: string; when: (op: OperationFacts) => boolean; headers?: string[] }
> = {
  400: {
    description:
      'Malformed request: `MALFORMED_URL` (bad percent-encoding), `CONTROL_CHARACTER_REFUSED` (a control character where no field may hold one), `ILL_FORMED_TEXT_REFUSED` (a lone UTF-16 surrogate), `BODY_TOO_DEEP` (a JSON body nested deeper than 32 levels), `CARD_NUMBER_REFUSED` (a card number in the body, the query or the `Idempotency-Key`), `FORBIDDEN_PROPERTY` (`__proto__` and the like in a JSON body).',
    when: () => true,
  },
  408: { description: '`REQUEST_TIMEOUT`: the request was not received in time.', when: () => true },
  409: {
    description:
      '`IDEMPOTENCY_REQUEST_IN_PROGRESS`: the first request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds.',
    when: (op) => op.isIdempotent,
    headers: ['Retry-After'],
  },
  413: {
    description: '`PAYLOAD_TOO_LARGE`: the body is over `BODY_LIMIT_BYTES`.',
    when: (op) => op.mayCarryBody,
  },
  414: {
    description: '`PATH_SEGMENT_TOO_LONG`: a path parameter is over 100 characters.',
    when: (op) => op.hasPathParameters,
  },
  415: {
    description: '`UNSUPPORTED_MEDIA_TYPE`: a body that is not `application/json` (any method that may carry a body).',
    when: (op) => op.mayCarryBody && !op.isTokenEndpoint,
  },
  422: {
    description:
      '`IDEMPOTENCY_KEY_REUSED`: this `Idempotency-Key` was used with another request (method, path or body); use a new key. Kept for the key like the first answer.',
    when: (op) => op.isIdempotent,
    headers: ['Idempotent-Replayed'],
  },
  429: {
    description:
      '`RATE_LIMITED` (`temporarily_unavailable` on the token endpoint): too many requests for this partner, address or username; see `Retry-After`.',
    when: (op) => op.isProtected || op.isTokenEndpoint,
    headers: ['Retry-After', 'RateLimit-Policy', 'RateLimit'],
  },
  431: { description: '`HEADERS_TOO_LARGE`: the request headers are over 16 KiB.', when: () => true },
  500: {
    description:
      '`INTERNAL_ERROR` (`server_error` on the token endpoint): a fault of ours; only the request id is shown.',
    when: () => true,
  },
  503: {
    description:
      '`DATABASE_UNAVAILABLE` while the database cannot be reached, `SHUTTING_DOWN` while the process drains; see `Retry-After`.',
    when: () => true,
    headers: ['Retry-After'],
  },
};

interface OperationFacts {
  readonly isProtected: boolean;
  readonly isTokenEndpoint: boolean;
  /** Its method may carry a body (whether or not it declares one): the body is parsed, so it may be too large or not JSON. */
  readonly mayCarryBody: boolean;
  readonly hasPathParameters: boolean;
  /** Answers 304 to `If-None-Match`, so its 200 carries an ETag. */
  readonly hasEtag: boolean;
  /** Reads `Idempotency-Key` (http/idempotency/hooks.ts `idempotentRoute`). */
  readonly isIdempotent: boolean;
}

function factsOf(method: string, operation: Json): OperationFacts {
  const parameters = (operation.parameters as Json[] | undefined) ?? [];
  const security = operation.security as unknown[] | undefined;
  return {
    isProtected: Array.isArray(security) && security.length > 0,
    // The token endpoint's errors use the OAuth body (auth/schemas.ts TokenError).
    isTokenEndpoint: JSON.stringify(operation.responses).includes('"#/components/schemas/TokenError"'),
    mayCarryBody: ['post', 'put', 'patch', 'delete'].includes(method),
    hasPathParameters: parameters.some((p) => p.in === 'path'),
    hasEtag: isObject(operation.responses) && '304' in operation.responses,
    isIdempotent: parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
  };
}

/** Headers every answer carries (documented on the shared answers too). */
const ALWAYS = ['X-Request-Id', 'Cache-Control', 'Pragma'];

/** The shared answer of `status` in the body the operation uses, added to `components.responses` on first use. */
function sharedResponse(
  responses: Json,
  status: string,
  spec: (typeof SHARED_ERRORS)[string],
  oauthBody: boolean,
): Json {
  const name = `${oauthBody ? 'OAuth' : ''}Error${status}`;
  const notification = sharedErrorExample(status);
  const example = oauthBody ? OAUTH_ERROR_EXAMPLES[status] : notification && errorEnvelope(notification);
  responses[name] ??= {
    description: spec.description,
    headers: Object.fromEntries([...ALWAYS, ...(spec.headers ?? [])].map((h) => [h, ref('headers', h)])),
    content: {
      'application/json': { schema: ref('schemas', oauthBody ? 'TokenError' : 'ErrorResponse'), example },
    },
  };
  return ref('responses', name);
}

/** Response headers an answer of `status` carries on this operation. */
function headersFor(status: string, facts: OperationFacts): string[] {
  const headers = [...ALWAYS];
  if (status === '304' || (status === '200' && facts.hasEtag)) headers.push('ETag');
  if (status === '401' || (status === '403' && facts.isProtected)) headers.push('WWW-Authenticate');
  // Conflicts that pass (a purchase or a change under way, a request with the same key running) say when to retry.
  if (status === '409' || status === '429' || status === '503') headers.push('Retry-After');
  if (status === '429') headers.push('RateLimit-Policy', 'RateLimit');
  if (facts.isIdempotent && isStoredStatus(Number(status))) headers.push('Idempotent-Replayed');
  return headers;
}

/**
 * Headers a route declares on an answer (`headers` of its response schema) are sent on every such
 * answer: required, unless the route says `required: false`. Shared headers are referred to by name.
 */
function completeHeaders(response: Json, status: string, facts: OperationFacts): void {
  const headers = isObject(response.headers) ? response.headers : {};
  for (const header of Object.values(headers)) {
    if (!isObject(header) || '$ref' in header) continue;
    // A route marks a header sent on some answers only with `required: false`, which @fastify/swagger leaves in its schema.
    if (isObject(header.schema) && header.schema.required === false) {
      Reflect.deleteProperty(header.schema, 'required');
      header.required = false;
    }
    header.required ??= true;
  }
  for (const name of headersFor(status, facts)) headers[name] ??= ref('headers', name);
  response.headers = headers;
}

/** A route whose body may be left out (http/guards/empty-body.ts) says so (see `documentRoute`). */
const OPTIONAL_BODY = 'x-optional-body';

/** Several examples of one error answer are named by their code (a reader picks `QUOTE_REFERRED`, not `example1`). */
function nameErrorExamples(response: unknown): void {
  const media = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
  if (!isObject(media) || !isObject(media.examples)) return;
  const named: Json = {};
  for (const [key, example] of Object.entries(media.examples)) {
    const value = isObject(example) ? example.value : undefined;
    const validation = isObject(value) && isObject(value.validation) ? value.validation : undefined;
    const first = Array.isArray(validation?.errors) ? (validation.errors[0] as unknown) : undefined;
    const code = isObject(first) && typeof first.code === 'string' ? first.code : key;
    named[code] = { summary: isObject(first) ? first.message : undefined, value };
  }
  media.examples = named;
}

/** An operation's own 400 without an example shows what its validator answers (error-examples.ts). */
function giveValidationExample(response: unknown, operation: Json, document: OpenApiDocument): void {
  const media = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
  if (!isObject(media) || 'example' in media || 'examples' in media) return;
  media.example = errorEnvelope(validationExample(operation, document));
}

/** Adds the shared error answers, the response headers and the conditional request header. */
export function addSharedParts(document: OpenApiDocument): OpenApiDocument {
  const sharedResponses: Json = {};
  for (const pathItem of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      const responses = operation.responses;
      // Public operations say so (an empty requirement list), so "no security" is a decision, not an omission.
      operation.security ??= [];
      if (operation[OPTIONAL_BODY] === true && isObject(operation.requestBody)) operation.requestBody.required = false;
      Reflect.deleteProperty(operation, OPTIONAL_BODY);
      const facts = factsOf(method, operation);
      if (!facts.isTokenEndpoint) giveValidationExample(responses['400'], operation, document);
      for (const response of Object.values(responses)) nameErrorExamples(response);
      for (const [status, spec] of Object.entries(SHARED_ERRORS)) {
        if (status in responses || !spec.when(facts)) continue;
        responses[status] = sharedResponse(sharedResponses, status, spec, facts.isTokenEndpoint);
      }
      for (const [status, response] of Object.entries(responses))
        if (isObject(response) && !('$ref' in response)) completeHeaders(response, status, facts);
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
  document.components = {
    ...document.components,
    responses: { ...(document.components.responses as Json | undefined), ...sharedResponses },
    headers: { ...(document.components.headers as Json | undefined), ...SHARED_HEADERS },
  };
  return document;
}

const IDEMPOTENCY_KEY = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description:
    'Makes a retry safe: the same key with the same body replays the stored answer (docs/api-contract.md "Idempotency"); keys are per partner.',
  example: '3f0c9b8e-1d2a-4c3b-9e8f-7a6b5c4d3e2f',
};
const IF_NONE_MATCH = {
  type: 'string',
  description: 'The `ETag` of an answer you hold: 304 with no body while it is current.',
  example: '"k2v9cZbqU3nQ0cX0y0V5o1pWm8s"',
};

/**
 * The per-route half (@fastify/swagger `transform`, document only: nothing here is validated):
 * request headers a route's hooks read, and whether its body may be left out, declared from what
 * the route is (its config and hooks), not from its prose.
 */
export function documentRoute(input: {
  schema: FastifySchema;
  url: string;
  route: { config?: unknown; preValidation?: unknown };
}): { schema: FastifySchema; url: string } {
  const schema: Json = isObject(input.schema) ? { ...input.schema } : {};
  const config = isObject(input.route.config) ? input.route.config : {};
  const response = isObject(schema.response) ? schema.response : {};
  const headers: Json = {};
  const required: string[] = [];
  if (config.idempotencyKey !== undefined) headers['Idempotency-Key'] = IDEMPOTENCY_KEY;
  if (config.idempotencyKey === 'required') required.push('Idempotency-Key');
  if ('304' in response) headers['If-None-Match'] = IF_NONE_MATCH;
  if (Object.keys(headers).length > 0) schema.headers = { type: 'object', properties: headers, required };
  // @fastify/swagger marks every body required; `addSharedParts` reads this mark and removes it.
  const hooks = [input.route.preValidation].flat();
  if (hooks.includes(emptyBodyAsObject)) schema[OPTIONAL_BODY] = true;
  return { schema, url: input.url };
}
