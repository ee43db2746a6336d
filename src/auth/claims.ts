import type { BrandCode } from '../kernel/brands.js';

/** What an access token asserts; also what the bearer guard hands to routes. */
export interface AccessClaims {
  userId: number;
  partnerId: number;
  partnerCode: string;
  userTypeId: number;
  customerInterfaceId: number;
  brandCode: BrandCode;
  clientId: string;
  /** The login, for audit trails (OIDC `preferred_username`). */
  username: string;
  /**
   * The refresh-token family (the sign-in session) the token was issued in, claim `sid`: the
   * bearer checks refuse it once the family is revoked (reuse detection, deactivation).
   */
  sessionId: string;
}
