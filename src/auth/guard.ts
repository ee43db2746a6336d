import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isBrandCode } from '../kernel/brands.js';
import { BEARER_SCHEME } from '../http/openapi/shared.js';
import { withErrorExamples } from '../http/error-responses.js';
import type { AppContext } from '../context.js';
import { UnknownBrand } from '../kernel/errors.js';
import { verifyAccessToken } from './access-tokens.js';
import { BrandNotAllowed, InvalidToken, MalformedAuthorization, TokenRequired, bearerChallenge } from './errors.js';
import type { Principal } from './principal.js';
import type { AuthServices } from './service.js';

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's bearer guard (installed once in src/app.ts; `protectWithBearer` adds it to a scope). */
    bearerGuard: Guard;
  }
}

// RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
export const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

function bearerToken(request: FastifyRequest, reply: FastifyReply): string {
  const header = request.headers.authorization;
  const query = request.query as Record<string, unknown> | undefined;
  const inQuery = query !== undefined && 'access_token' in query;
  const malformed = (message: string) => {
    reply.header('www-authenticate', bearerChallenge('invalid_request'));
    return new MalformedAuthorization(message);
  };
  if (inQuery) throw malformed('Send the access token in the Authorization header, never in the query string.');
  if (header === undefined || header === '') throw new TokenRequired();
  const match = BEARER.exec(header);
  if (!match?.[1]) throw malformed("The Authorization header must be 'Bearer <access token>'.");
  return match[1];
}

/**
 * The bearer guard, in this order: authenticate (401 / 400 per RFC 6750), then an unknown brand on
 * the path (404 UNKNOWN_BRAND), then a token of another brand (403 BRAND_NOT_ALLOWED).
 */
export function bearerGuard(context: AppContext, services: AuthServices): Guard {
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = bearerToken(request, reply);
    const claims = await verifyAccessToken(context, services.keys, token, services.verifiedTokens);
    if (!(await services.userStatus.allowed(claims)))
      throw new InvalidToken('the session was revoked or the user is no longer active');
    const pathBrand = (request.params as Record<string, unknown> | undefined)?.brandCode;
    if (typeof pathBrand === 'string') {
      if (!isBrandCode(pathBrand)) throw new UnknownBrand(pathBrand);
      if (pathBrand !== claims.brandCode) {
        reply.header('www-authenticate', bearerChallenge('insufficient_scope', 'the token is for another brand'));
        throw new BrandNotAllowed(claims.brandCode, pathBrand);
      }
    }
    request.principal = {
      userId: claims.userId,
      partnerId: claims.partnerId,
      partnerCode: claims.partnerCode,
      brandCode: claims.brandCode,
      userTypeId: claims.userTypeId,
      customerInterfaceId: claims.customerInterfaceId,
      username: claims.username,
    } satisfies Principal;
  };
}

/** Makes the app's bearer guard available to every scope (src/app.ts, once). */
export function installBearerGuard(app: FastifyInstance, context: AppContext, services: AuthServices): void {
  app.decorate('bearerGuard', bearerGuard(context, services));
  app.decorateRequest('principal', null);
}

/**
 * Puts every route of `scope` behind the bearer guard (src/app.ts does this for `protectedApi`)
 * and declares it in the route's OpenAPI `security`, in the same place, so the document cannot
 * forget a guarded operation and security-aware generated clients send the token.
 */
/** The guard's refusals as the document shows them. */
const GUARD_REFUSALS = [new TokenRequired(), new BrandNotAllowed('brandau', 'brandnz')];

export function protectWithBearer(scope: FastifyInstance): void {
  scope.addHook('onRequest', scope.bearerGuard);
  scope.addHook('onRoute', (route) => {
    // Documented with what the guard answers: no token (401), another brand's token (403).
    const response = withErrorExamples(route.schema?.response, GUARD_REFUSALS);
    route.schema = { ...route.schema, security: [{ [BEARER_SCHEME]: [] }], response };
  });
}
