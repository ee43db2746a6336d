import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { badRefreshToken } from './errors.js';
import {
  claimRefreshToken,
  findRefreshToken,
  insertRefreshToken,
  purgeExpiredFamilies,
  revokeFamily,
} from './token-repository.js';

/** What a refresh token is bound to; the rotated token inherits it. */
export interface RefreshBinding {
  clientId: string;
  userId: number;
  brandCode: string;
  customerInterfaceId: number;
  userTypeId: number;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** 256 random bits, base64url: opaque to clients, stored only as its SHA-256. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

interface FamilyPosition {
  familyId: string;
  familyExpiresAt: string;
}

async function store(
  context: AppContext,
  binding: RefreshBinding,
  family: FamilyPosition,
  db = context.db,
): Promise<string> {
  const token = newToken();
  const now = context.clock();
  await insertRefreshToken(db, {
    token_hash: hashOf(token),
    family_id: family.familyId,
    client_id: binding.clientId,
    user_id: binding.userId,
    brand_code: binding.brandCode,
    customer_interface_id: binding.customerInterfaceId,
    user_type_id: binding.userTypeId,
    created_at: now.toISOString(),
    family_expires_at: family.familyExpiresAt,
    idle_expires_at: new Date(now.getTime() + context.config.auth.refreshTokenIdleSeconds * 1000).toISOString(),
  });
  return token;
}

/**
 * Removes families past their absolute lifetime (run at start and by operators; cheap to repeat).
 * A family is kept one access-token lifetime longer: its revocation is what refuses the access
 * tokens issued in it (claim `sid`), and the last of them may outlive the family by that much.
 */
export function purgeExpiredRefreshTokens(context: AppContext): Promise<void> {
  const before = context.clock().getTime() - context.config.auth.accessTokenTtlSeconds * 1000;
  return purgeExpiredFamilies(context.db, new Date(before).toISOString());
}

/** A password login starts a new family with an absolute end of REFRESH_TOKEN_TTL_SECONDS. */
export async function startFamily(
  context: AppContext,
  binding: RefreshBinding,
): Promise<{ token: string; familyId: string }> {
  const familyExpiresAt = new Date(
    context.clock().getTime() + context.config.auth.refreshTokenTtlSeconds * 1000,
  ).toISOString();
  const familyId = randomUUID();
  return { token: await store(context, binding, { familyId, familyExpiresAt }), familyId };
}

/**
 * Exchanges a refresh token for a new one of the same family. A token presented a second time
 * (replay, or the loser of a concurrent race) revokes the whole family (RFC 9700 §4.14.2) and
 * tells `revoked`, so this process forgets the family's cached standing at once.
 * `stillAllowed` re-checks the user inside the exchange.
 */
export async function rotate(
  context: AppContext,
  presented: string,
  expected: { clientId: string; brandCode: string },
  stillAllowed: (userId: number) => Promise<boolean>,
  revoked: (familyId: string) => void = () => undefined,
): Promise<{ binding: RefreshBinding; token: string; familyId: string }> {
  const row = await findRefreshToken(context.db, hashOf(presented));
  if (!row) throw badRefreshToken();
  const now = context.clock().toISOString();
  if (row.revoked_at !== null) throw badRefreshToken();
  if (row.used_at !== null) {
    await revokeFamily(context.db, row.family_id, now);
    revoked(row.family_id);
    throw badRefreshToken();
  }
  // Another client or brand presenting it: refuse without burning the owner's token.
  if (row.client_id !== expected.clientId || row.brand_code !== expected.brandCode) throw badRefreshToken();
  if (row.family_expires_at <= now || row.idle_expires_at <= now) throw badRefreshToken();
  if (!(await stillAllowed(row.user_id))) throw badRefreshToken();

  const binding: RefreshBinding = {
    clientId: row.client_id,
    userId: row.user_id,
    brandCode: row.brand_code,
    customerInterfaceId: row.customer_interface_id,
    userTypeId: row.user_type_id,
  };
  const token = await context.db.transaction().execute(async (tx) => {
    if (!(await claimRefreshToken(tx, row.id, now))) return undefined;
    return store(context, binding, { familyId: row.family_id, familyExpiresAt: row.family_expires_at }, tx);
  });
  if (token === undefined) {
    await revokeFamily(context.db, row.family_id, now);
    revoked(row.family_id);
    throw badRefreshToken();
  }
  return { binding, token, familyId: row.family_id };
}
