import { Forbidden, InvalidInput, Unauthenticated } from '../kernel/errors.js';

/** RFC 6749 §5.2 error codes (plus `temporarily_unavailable` for the brute-force lock). */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'temporarily_unavailable',
  'server_error',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/**
 * A token-endpoint failure. It is not a DomainError on purpose: the token endpoint answers with
 * the spec's `{error, error_description}` body, not the common envelope (see auth/routes.ts).
 */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);

/** One message for every credential failure, so it never tells whether the username exists. */
export const badCredentials = () =>
  new OAuthError(
    401,
    'invalid_grant',
    'The username, password or user type is not valid for this brand and interface.',
  );

export const badRefreshToken = () =>
  new OAuthError(
    401,
    'invalid_grant',
    'The refresh token is invalid, expired, revoked or was issued to another client or brand.',
  );

export const REALM = 'partner-api';

/** RFC 6750 §3 challenge; `error` is left out when the request carried no credentials. */
export function bearerChallenge(
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope',
  description?: string,
): string {
  let challenge = `Bearer realm="${REALM}"`;
  if (error) challenge += `, error="${error}"`;
  if (description) challenge += `, error_description="${description}"`;
  return challenge;
}

export class TokenRequired extends Unauthenticated {
  constructor() {
    super(
      'TOKEN_REQUIRED',
      'This endpoint requires an Authorization: Bearer <access token> header.',
      bearerChallenge(),
    );
  }
}

export class InvalidToken extends Unauthenticated {
  constructor(reason: string) {
    super('INVALID_TOKEN', `The access token is not valid: ${reason}.`, bearerChallenge('invalid_token', reason));
  }
}

/** The Authorization header is not `Bearer <token>` (RFC 6750 §3.1 invalid_request: 400). */
export class MalformedAuthorization extends InvalidInput {
  constructor(message: string) {
    super('INVALID_AUTHORIZATION_HEADER', message, { property: 'Authorization' });
  }
}

export class BrandNotAllowed extends Forbidden {
  constructor(tokenBrand: string, pathBrand: string) {
    super('BRAND_NOT_ALLOWED', `The access token was issued for brand '${tokenBrand}', not '${pathBrand}'.`, {
      property: 'brandCode',
      value: pathBrand,
    });
  }
}

/** `{brandCode}` of the token path names neither a brand nor a partner brand code (404, as before the form is read). */
export function unknownBrand(code: string): OAuthError {
  return new OAuthError(404, 'invalid_request', `Brand '${code.slice(0, 40)}' does not exist.`);
}
