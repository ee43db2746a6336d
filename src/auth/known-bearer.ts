import type { AppContext } from '../context.js';
import type { AccessClaims } from './access-tokens.js';
import { BEARER } from './guard.js';
import type { AuthServices } from './service.js';

/**
 * The claims of an `Authorization` header whose token this process has already verified, when
 * memory alone vouches for everything the bearer guard checks: the token unexpired, its signing
 * key still in its verification window, the user in good standing. Anything it cannot decide
 * synchronously is undefined, and the caller goes the guard's way (which also gives the errors).
 */
export function claimsKnownFor(context: AppContext, services: AuthServices, authorization: string | undefined): AccessClaims | undefined {
  if (authorization === undefined) return undefined;
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined) return undefined;
  const verified = services.verifiedTokens.get(token, context.clock().getTime());
  if (!verified || !services.keys.loadedVerificationKey(verified.kid)) return undefined;
  return services.userStatus.knownAllowed(verified.claims.userId) ? verified.claims : undefined;
}
