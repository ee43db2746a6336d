import type { Static } from 'typebox';
import { isBrandCode } from '../kernel/brands.js';
import type { AppContext } from '../context.js';
import { signAccessToken } from './access-tokens.js';
import type { AccessClaims } from './claims.js';
import { LoginThrottle } from './brute-force.js';
import { OAuthError, badCredentials, invalidRequest, unknownBrand } from './errors.js';
import { KeyStore } from './keys.js';
import type { TokenResult as TokenResultSchema } from './schemas.js';
import { PasswordHasher } from './passwords.js';
import { rotate, startFamily, type RefreshBinding } from './refresh-tokens.js';
import { VerifiedTokenCache } from './verified-tokens.js';
import { tokenBrandOf, type TokenBrand } from './brand-codes.js';
import { setBounded } from '../kernel/cache/bounded-map.js';
import { isFamilyRevoked } from './token-repository.js';
import { findClientInterfaces, findUserByLogin, findUserPartner, isUserInGoodStanding } from './repository.js';

/** Long-lived helpers of the identity area, one set per app (key cache, status cache, throttle). */
export interface AuthServices {
  readonly keys: KeyStore;
  readonly passwords: PasswordHasher;
  readonly throttle: LoginThrottle;
  readonly userStatus: UserStatusCache;
  readonly verifiedTokens: VerifiedTokenCache;
}

/** Sessions whose standing a process remembers; ~100 bytes each. */
export const SESSION_STATUS_CAPACITY = 10_000;

/**
 * Remembers for USER_STATUS_CACHE_SECONDS whether an access token's session may act (the user is
 * active, the partner too, and the token's refresh family `sid` is not revoked), so the guard and
 * the front cache stay cheap. That many seconds is the longest another process keeps accepting a
 * revoked session's access tokens; the process that revokes a family forgets it at once.
 */
export class UserStatusCache {
  private readonly entries = new Map<string, { allowed: boolean; at: number }>();

  constructor(private readonly context: AppContext) {}

  private get ttlMs(): number {
    return this.context.config.auth.userStatusCacheSeconds * 1000;
  }

  /** The remembered answer while it is fresh; undefined when the database must be asked. */
  private remembered(claims: SessionClaims): boolean | undefined {
    const hit = this.entries.get(claims.sessionId);
    return hit && this.context.clock().getTime() - hit.at < this.ttlMs ? hit.allowed : undefined;
  }

  /** True only when a fresh entry says the session may act; false means "ask `allowed`". */
  knownAllowed(claims: SessionClaims): boolean {
    return this.remembered(claims) === true;
  }

  async allowed(claims: SessionClaims): Promise<boolean> {
    const hit = this.remembered(claims);
    if (hit !== undefined) return hit;
    const { db } = this.context;
    const allowed = (await isUserInGoodStanding(db, claims.userId)) && !(await isFamilyRevoked(db, claims.sessionId));
    if (this.ttlMs > 0)
      setBounded(
        this.entries,
        claims.sessionId,
        { allowed, at: this.context.clock().getTime() },
        SESSION_STATUS_CAPACITY,
      );
    return allowed;
  }

  /** A family this process just revoked: its access tokens are refused from the next request on. */
  forget(sessionId: string): void {
    this.entries.delete(sessionId);
  }
}

type SessionClaims = Pick<AccessClaims, 'userId' | 'sessionId'>;

export function createAuthServices(context: AppContext): AuthServices {
  return {
    keys: new KeyStore(context),
    passwords: new PasswordHasher(context.config.auth.argon2),
    throttle: new LoginThrottle(context),
    userStatus: new UserStatusCache(context),
    verifiedTokens: new VerifiedTokenCache(),
  };
}

/** The token request after HTTP parsing: form fields as sent (strings) plus where it came from. */
export interface TokenRequest {
  readonly brandCode: string;
  readonly ip: string;
  readonly fields: Readonly<Record<string, string | undefined>>;
}

/** The token endpoint's answer: the contract's shape. */
export type TokenResult = Static<typeof TokenResultSchema>;

function required(fields: TokenRequest['fields'], name: string): string {
  const value = fields[name];
  if (value === undefined || value === '') throw invalidRequest(`The form field '${name}' is required.`);
  return value;
}

function numericField(fields: TokenRequest['fields'], name: string, fallback?: string): number {
  const value = fields[name] ?? fallback;
  if (value === undefined || value === '') throw invalidRequest(`The form field '${name}' is required.`);
  if (!/^\d{1,9}$/.test(value)) throw invalidRequest(`The form field '${name}' must be a whole number.`);
  return Number(value);
}

async function issue(
  context: AppContext,
  services: AuthServices,
  binding: RefreshBinding,
  session: { token: string; familyId: string },
): Promise<TokenResult> {
  const partner = await userPartner(context, binding.userId);
  const { brandCode } = binding;
  if (!isBrandCode(brandCode)) throw new Error(`Refresh binding names unknown brand ${brandCode}.`);
  const claims: AccessClaims = {
    ...binding,
    brandCode,
    partnerId: partner.id,
    partnerCode: partner.code,
    username: partner.login,
    sessionId: session.familyId,
  };
  const { token, expiresIn } = await signAccessToken(context, services.keys, claims);
  return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, refresh_token: session.token };
}

async function userPartner(context: AppContext, userId: number): Promise<{ id: number; code: string; login: string }> {
  const partner = await findUserPartner(context.db, userId);
  if (!partner) throw new Error(`User ${userId} has no partner.`);
  return partner;
}

async function passwordGrant(
  context: AppContext,
  services: AuthServices,
  request: TokenRequest,
  clientId: string,
  brand: TokenBrand,
): Promise<TokenResult> {
  const { fields } = request;
  const username = required(fields, 'username');
  const password = required(fields, 'password');
  const customerInterfaceId = numericField(fields, 'customerInterfaceId');
  const userTypeId = numericField(fields, 'userTypeId', '1');
  const interfaces = await findClientInterfaces(context.db, clientId);
  if (!interfaces) throw new OAuthError(401, 'invalid_client', 'The client_id is not a registered client.');
  if (!interfaces.includes(customerInterfaceId)) {
    throw new OAuthError(
      401,
      'unauthorized_client',
      `Client '${clientId}' may not request tokens for customerInterfaceId ${customerInterfaceId}.`,
    );
  }

  // Counted before the (costly) password check, so parallel guesses cannot outrun the limit.
  const attempt = await services.throttle.reserve(username, request.ip);
  const user = await findUserByLogin(context.db, username);
  const passwordOk = user
    ? await services.passwords.verify(user.passwordHash, password)
    : await services.passwords.verifyDummy(password);
  const accepted =
    user !== undefined &&
    passwordOk &&
    user.isActive &&
    user.partnerStatusCode === 'ACTIVE' &&
    user.userTypeId === userTypeId &&
    user.brandCodes.includes(brand.brandCode) &&
    // A partner brand code is that partner's alone: another partner's user is refused like bad credentials.
    (brand.partnerId === undefined || user.partnerId === brand.partnerId);
  if (!accepted) {
    await services.throttle.failed(attempt);
    throw badCredentials();
  }
  await services.throttle.succeeded(attempt);
  const binding: RefreshBinding = {
    clientId,
    userId: user.id,
    brandCode: brand.brandCode,
    customerInterfaceId,
    userTypeId,
  };
  return issue(context, services, binding, await startFamily(context, binding));
}

async function refreshGrant(
  context: AppContext,
  services: AuthServices,
  request: TokenRequest,
  clientId: string,
  brand: TokenBrand,
): Promise<TokenResult> {
  const presented = required(request.fields, 'refresh_token');
  if ((await findClientInterfaces(context.db, clientId)) === undefined) {
    throw new OAuthError(401, 'invalid_client', 'The client_id is not a registered client.');
  }
  const { binding, token, familyId } = await rotate(
    context,
    presented,
    { clientId, brandCode: brand.brandCode },
    async (userId) =>
      (await isUserInGoodStanding(context.db, userId)) &&
      (brand.partnerId === undefined || (await findUserPartner(context.db, userId))?.id === brand.partnerId),
    (revoked) => services.userStatus.forget(revoked),
  );
  return issue(context, services, binding, { token, familyId });
}

/** The token endpoint's rules (spec §4.1, §5): password and refresh_token grants. */
export async function issueToken(
  context: AppContext,
  services: AuthServices,
  request: TokenRequest,
): Promise<TokenResult> {
  const grantType = required(request.fields, 'grant_type');
  const clientId = required(request.fields, 'client_id');
  const brand = await tokenBrandOf(context.db, request.brandCode);
  if (!brand) throw unknownBrand(request.brandCode);
  if (grantType === 'password') return passwordGrant(context, services, request, clientId, brand);
  if (grantType === 'refresh_token') return refreshGrant(context, services, request, clientId, brand);
  throw new OAuthError(
    400,
    'unsupported_grant_type',
    `grant_type '${grantType}' is not supported; use 'password' or 'refresh_token'.`,
  );
}
