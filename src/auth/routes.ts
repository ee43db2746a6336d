import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { databaseFault } from '../db/faults.js';
import { InvalidInput } from '../kernel/errors.js';
import { Type } from 'typebox';
import { redactCardNumbers } from '../kernel/card-numbers/card-numbers.js';
import { BASIC_CHALLENGE, BasicClientRefused, clientIdOf } from './client-auth.js';
import { OAuthError, badCredentials, invalidRequest, unknownBrand } from './errors.js';
import { TokenError, TokenForm, TokenResult } from './schemas.js';
import { issueToken, type AuthServices } from './service.js';

const FORM = 'application/x-www-form-urlencoded';

/** The token path's `{brandCode}`: a brand, or a partner brand code (spec §5 note 6; auth/brand-codes.ts). */
const TokenParams = Type.Object({
  brandCode: Type.String({
    pattern: '^[A-Za-z][A-Za-z0-9-]{1,31}$',
    description:
      'The brand (`brandau`, `brandnz`, `directau`, `nomad`), or the calling partner’s own brand code, which maps to one of them: the token is then that brand’s, for that partner’s users only. Unknown: 404 `invalid_request`.',
    examples: ['brandau', 'acme-travel'],
  }),
});

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  // RFC 6749 §5.2: a client that authenticated with HTTP Basic is refused with 401 and the Basic
  // challenge, whichever check refused it (its header's form, or an unregistered client id).
  const basic = /^Basic /i.test(reply.request.headers.authorization ?? '');
  if (error instanceof BasicClientRefused || (basic && error.status === 401 && error.error === 'invalid_client'))
    reply.header('www-authenticate', BASIC_CHALLENGE);
  // Descriptions may quote a form field (`grant_type`, `client_id`): never a card number sent in one.
  return reply
    .status(error.status)
    .send({ error: error.error, error_description: redactCardNumbers(error.description) });
}

/** The token endpoint answers every failure with the spec's `{error, error_description}` body. */
function tokenErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof OAuthError) return sendOAuthError(reply, error);
  // A control character in a form field (http/guards/control-characters.ts), in the OAuth error format.
  if (error instanceof InvalidInput) return sendOAuthError(reply, invalidRequest(error.message));
  if (error.validation && error.validationContext === 'params') {
    return sendOAuthError(reply, unknownBrand(String((request.params as Record<string, unknown>).brandCode)));
  }
  if (error.validation) {
    const first = error.validation[0];
    const missing = first?.params.missingProperty;
    const field = typeof missing === 'string' ? missing : (first?.instancePath.slice(1) ?? '');
    const grantType = (request.body as Record<string, unknown> | undefined)?.grant_type;
    if (field === 'grant_type' && first?.keyword === 'enum' && grantType !== '') {
      return sendOAuthError(
        reply,
        new OAuthError(400, 'unsupported_grant_type', "grant_type must be 'password' or 'refresh_token'."),
      );
    }
    const problem =
      typeof missing === 'string'
        ? 'is required'
        : first?.keyword === 'pattern'
          ? 'must be a whole number'
          : 'must be given once, as text';
    return sendOAuthError(reply, invalidRequest(`The form field '${field}' ${problem}.`));
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return sendOAuthError(reply, new OAuthError(413, 'invalid_request', 'The request body is too large.'));
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return sendOAuthError(reply, invalidRequest(`The request body must be ${FORM}.`));
  }
  const fault = databaseFault(error);
  if (fault) {
    request.log.warn({ err: error }, 'database unavailable');
    return sendOAuthError(
      reply,
      new OAuthError(503, 'temporarily_unavailable', fault.message, fault.retryAfterSeconds),
    );
  }
  request.log.error({ err: error }, 'token request failed');
  return reply.status(500).send({
    error: 'server_error',
    error_description: `The server could not complete the request (request id ${request.id}).`,
  });
}

/** Form bodies only, and no credentials in the URL (RFC 6749 §2.3.1, §3.2). */
function transportProblem(request: FastifyRequest): OAuthError | undefined {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== FORM) return invalidRequest(`The request body must be ${FORM}.`);
  if (Object.keys(request.query as object).length > 0)
    return invalidRequest('The token endpoint takes no query parameters; send every field in the form body.');
  return undefined;
}

/** Request budgets of the token endpoint (http/limits/rate-limits.ts); absent when limits are off. */
export interface TokenRequestLimits {
  /** On arrival, before anything is parsed. */
  readonly byAddress: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Once the form is parsed and valid. */
  readonly byUsername: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

/**
 * `POST /users/{brandCode}/token`. Registered as its own plugin so the form parser exists only
 * here: every other endpoint keeps accepting JSON alone.
 */
export async function authRoutes(
  scope: FastifyInstance,
  options: { context: AppContext; services: AuthServices; limits?: TokenRequestLimits },
): Promise<void> {
  const { limits } = options;
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();
  // Its answers carry `Cache-Control: no-store` and `Pragma: no-cache` (RFC 6749 §5.1) like every uncached answer: http/guards/private-answers.ts.
  await api.register(formbody);
  api.post(
    '/users/:brandCode/token',
    {
      schema: {
        tags: ['auth'],
        operationId: 'issueToken',
        summary: 'Obtain or renew an access token',
        description:
          'Spec §4.1 and §5. `grant_type=password` signs a user in (partners: `client_id=API`, `customerInterfaceId=8`, ' +
          '`userTypeId=4`); `grant_type=refresh_token` exchanges a refresh token for a new pair. Form body only; ' +
          'answers carry `Cache-Control: no-store`. Failures use `{error, error_description}` (RFC 6749 §5.2): 400 ' +
          '`invalid_request` / `unsupported_grant_type`, 401 `invalid_grant` / `invalid_client` / `unauthorized_client`, ' +
          '429 `temporarily_unavailable` with `Retry-After` after repeated failures or past the request limits per ' +
          'address and per username (`RateLimit-Policy` and `RateLimit` name the limit).',
        consumes: [FORM],
        params: TokenParams,
        body: TokenForm,
        response: {
          200: TokenResult,
          400: TokenError(
            'Malformed request: missing or repeated field, wrong content type, query parameters, or an unsupported grant type.',
            new OAuthError(400, 'unsupported_grant_type', "grant_type must be 'password' or 'refresh_token'."),
          ),
          401: TokenError(
            'Authentication failed: bad credentials or refresh token (`invalid_grant`), unknown client, or client not allowed for the interface.',
            badCredentials(),
          ),
          404: TokenError('Unknown brand or partner brand code.', unknownBrand('acme')),
          413: TokenError(
            'The body is larger than the server accepts.',
            new OAuthError(413, 'invalid_request', 'The request body is too large.'),
          ),
          429: TokenError(
            'Too many failed attempts, or too many requests, for this username or address; see `Retry-After`.',
            new OAuthError(429, 'temporarily_unavailable', 'Too many failed sign-in attempts; try again later.'),
          ),
          500: TokenError(
            'Unexpected server error.',
            new OAuthError(500, 'server_error', 'The server could not complete the request (request id req-7f3a9c).'),
          ),
        },
      },
      // Its form fields are short: a body larger than this is refused (413) before it is read.
      bodyLimit: options.context.config.tokenBodyLimitBytes,
      errorHandler: (error, request, reply) => {
        void tokenErrorHandler(error, request, reply);
      },
      preValidation: (request, _reply, done) => {
        done(transportProblem(request) as FastifyError | undefined);
      },
      ...(limits ? { onRequest: limits.byAddress, preHandler: limits.byUsername } : {}),
    },
    async (request, reply) => {
      const clientId = clientIdOf(request.headers.authorization, request.body);
      const result = await issueToken(options.context, options.services, {
        brandCode: request.params.brandCode,
        ip: request.ip,
        fields: { ...request.body, client_id: clientId },
      });
      return reply.status(200).send(result);
    },
  );
}
