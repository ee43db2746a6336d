import type { AccessClaims } from './claims.js';
import { BEARER } from './guard.js';
import type { AuthServices } from './service.js';

/**
 * The claims of an `Authorization` header whose token this process has already verified, when
 * memory alone vouches for everything the bearer guard checks at `nowMs`: the token unexpired, its
 * signing key still in its verification window, the user in good standing. Anything it cannot
 * decide synchronously is undefined, and the caller goes the guard's way (which also gives the errors).
 */
export function claimsKnownFor(
  services: AuthServices,
  authorization: string | undefined,
  nowMs: number,
): AccessClaims | undefined {
  const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  const verified = token === undefined ? undefined : services.verifiedTokens.get(token, nowMs);
  if (!verified || !services.keys.loadedVerificationKey(verified.kid)) return undefined;
  return services.userStatus.knownAllowed(verified.claims.userId) ? verified.claims : undefined;
}
