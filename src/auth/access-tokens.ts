import { BRAND_CODES, isBrandCode, type BrandCode } from '../kernel/brands.js';
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { AppContext } from '../context.js';
import type { AccessClaims } from './claims.js';
import { InvalidToken } from './errors.js';
import type { KeyStore } from './keys.js';
import type { VerifiedTokenCache } from './verified-tokens.js';

/** RFC 9068 media type of JWT access tokens; verification requires it. */
const ACCESS_TOKEN_TYPE = 'at+jwt';

/**
 * The issuer of one brand's tokens: each brand has its own token endpoint, so each is its own
 * authorization server (RFC 8414 §2), `{JWT_ISSUER or PUBLIC_BASE_URL + BASE_PATH}/users/{brandCode}`,
 * whose token endpoint is `{issuer}/token` and whose metadata auth/metadata.ts publishes.
 */
export function issuerOf(context: AppContext, brandCode: BrandCode): string {
  const base = context.config.auth.issuer ?? `${context.config.publicBaseUrl}${context.config.basePath}`;
  return `${base.replace(/\/+$/, '')}/users/${brandCode}`;
}

export async function signAccessToken(
  context: AppContext,
  keys: KeyStore,
  claims: AccessClaims,
): Promise<{ token: string; expiresIn: number }> {
  const { auth } = context.config;
  const { kid, key } = await keys.signingKey();
  const now = Math.floor(context.clock().getTime() / 1000);
  const token = await new SignJWT({
    partner_id: claims.partnerId,
    partner_code: claims.partnerCode,
    user_type_id: claims.userTypeId,
    customer_interface_id: claims.customerInterfaceId,
    brand: claims.brandCode,
    client_id: claims.clientId,
    preferred_username: claims.username,
    sid: claims.sessionId,
  })
    .setProtectedHeader({ alg: auth.jwtAlgorithm, kid, typ: ACCESS_TOKEN_TYPE })
    .setSubject(String(claims.userId))
    .setIssuer(issuerOf(context, claims.brandCode))
    .setAudience(auth.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + auth.accessTokenTtlSeconds)
    .setJti(randomUUID())
    .sign(key);
  return { token, expiresIn: auth.accessTokenTtlSeconds };
}

const positiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * Verifies signature (configured algorithm only), type, issuer, audience and lifetime; throws
 * InvalidToken. With `verified`, a token already verified by this process is answered from it
 * while it has not expired and its signing key may still verify.
 */
export async function verifyAccessToken(
  context: AppContext,
  keys: KeyStore,
  token: string,
  verified?: VerifiedTokenCache,
): Promise<AccessClaims> {
  const hit = verified?.get(token, context.clock().getTime());
  if (hit && (await keys.verificationKey(hit.kid))) return hit.claims;
  const { auth } = context.config;
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw new InvalidToken('the token is not a JWT');
  }
  if (!kid) throw new InvalidToken('the token has no key id');
  const key = await keys.verificationKey(kid);
  if (!key) throw new InvalidToken('the token was not signed by a key of this server');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: [auth.jwtAlgorithm],
      issuer: BRAND_CODES.map((brand) => issuerOf(context, brand)),
      audience: auth.audience,
      typ: ACCESS_TOKEN_TYPE,
      currentDate: context.clock(),
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new InvalidToken('the token has expired');
    throw new InvalidToken('the signature or claims do not verify');
  }
  const userId = Number(payload.sub);
  const { partner_id, partner_code, user_type_id, customer_interface_id, brand, client_id, preferred_username, sid } =
    payload;
  if (!positiveInt(userId) || !positiveInt(partner_id) || !text(partner_code) || !positiveInt(user_type_id)) {
    throw new InvalidToken('the token lacks required claims');
  }
  if (
    !positiveInt(customer_interface_id) ||
    !text(brand) ||
    !isBrandCode(brand) ||
    !text(client_id) ||
    !text(preferred_username) ||
    !text(sid)
  ) {
    throw new InvalidToken('the token lacks required claims');
  }
  if (payload.iss !== issuerOf(context, brand)) throw new InvalidToken('the token was issued for another brand');
  const claims: AccessClaims = {
    userId,
    partnerId: partner_id,
    partnerCode: partner_code,
    userTypeId: user_type_id,
    customerInterfaceId: customer_interface_id,
    brandCode: brand,
    clientId: client_id,
    username: preferred_username,
    sessionId: sid,
  };
  // requiredClaims made jose check that exp is there; it is a number once jwtVerify passed.
  if (typeof payload.exp === 'number') verified?.set(token, { claims, kid, expiresAt: payload.exp });
  return claims;
}
