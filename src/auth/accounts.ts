import { isBrandCode } from '../kernel/brands.js';
import type { AppContext } from '../context.js';
import { Conflict, InvalidInput, NotFound } from '../kernel/errors.js';
import { PasswordHasher } from './passwords.js';
import { findUserIdByLogin, revokeUserRefreshTokens } from './repository-users.js';
import { setPartnerUserActive } from '../work-queues/actions.js';
import { PartnerUserUnchanged } from './user-standing.js';
import {
  findPartnerByCode,
  findUserByLogin,
  insertPartner,
  insertUser,
  setOnAccountPurchase,
  type PartnerRecord,
} from './repository.js';

/** Operator-side account rules (partners and users), shared by the CLI, demo data and tests. */

export const USER_TYPES: Record<number, string> = {
  1: 'customer',
  2: 'employee',
  3: 'assistance provider',
  4: 'partner',
  5: 'underwriter',
};
const PARTNER_CODE = /^[A-Z0-9_-]{2,32}$/;
export const MIN_PASSWORD_LENGTH = 12;

export interface NewPartner {
  code: string;
  name: string;
  isOnAccountPurchaseEnabled?: boolean;
  isDemo?: boolean;
}

export async function createPartner(context: AppContext, partner: NewPartner): Promise<number> {
  if (!PARTNER_CODE.test(partner.code)) {
    throw new InvalidInput('INVALID_PARTNER_CODE', 'A partner code is 2–32 characters of A-Z, 0-9, _ and -.', {
      property: 'code',
      value: partner.code,
    });
  }
  if (partner.name.trim() === '')
    throw new InvalidInput('FIELD_REQUIRED', 'A partner needs a name.', { property: 'name' });
  if (await findPartnerByCode(context.db, partner.code)) {
    throw new Conflict('PARTNER_EXISTS', `Partner '${partner.code}' already exists.`, {
      property: 'code',
      value: partner.code,
    });
  }
  return insertPartner(context.db, {
    ...partner,
    isOnAccountPurchaseEnabled: partner.isOnAccountPurchaseEnabled ?? false,
  });
}

export function findPartner(context: AppContext, code: string): Promise<PartnerRecord | undefined> {
  return findPartnerByCode(context.db, code);
}

/** Allows or stops the partner's on-account purchases (PartnerSummary.isOnAccountPurchaseEnabled). */
export async function switchOnAccountPurchase(context: AppContext, code: string, enabled: boolean): Promise<void> {
  if (!(await setOnAccountPurchase(context.db, code, enabled)))
    throw new NotFound('UNKNOWN_PARTNER', `Partner '${code}' does not exist.`, { property: 'code', value: code });
}

export interface NewUser {
  partnerCode: string;
  login: string;
  password: string;
  userTypeId: number;
  brandCodes: readonly string[];
  isDemo?: boolean;
}

export async function createUser(context: AppContext, user: NewUser): Promise<number> {
  const login = user.login.trim();
  if (login.length < 3 || login.length > 254 || /\s/.test(login)) {
    throw new InvalidInput('INVALID_LOGIN', 'A login is 3–254 characters without spaces.', { property: 'login' });
  }
  if (user.password.length < MIN_PASSWORD_LENGTH) {
    throw new InvalidInput('PASSWORD_TOO_SHORT', `A password has at least ${MIN_PASSWORD_LENGTH} characters.`, {
      property: 'password',
    });
  }
  if (!(user.userTypeId in USER_TYPES)) {
    throw new InvalidInput('INVALID_USER_TYPE', 'userTypeId is 1 to 5.', {
      property: 'userTypeId',
      value: String(user.userTypeId),
    });
  }
  const unknown = user.brandCodes.find((b) => !isBrandCode(b));
  if (unknown !== undefined)
    throw new InvalidInput('UNKNOWN_BRAND', `Brand '${unknown}' does not exist.`, {
      property: 'brand',
      value: unknown,
    });
  if (user.brandCodes.length === 0)
    throw new InvalidInput('FIELD_REQUIRED', 'A user needs at least one brand.', { property: 'brand' });
  const partner = await findPartnerByCode(context.db, user.partnerCode);
  if (!partner)
    throw new NotFound('UNKNOWN_PARTNER', `Partner '${user.partnerCode}' does not exist.`, {
      property: 'partner',
      value: user.partnerCode,
    });
  if (await findUserByLogin(context.db, login))
    throw new Conflict('LOGIN_EXISTS', `Login '${login}' is taken (logins ignore case).`, { property: 'login' });
  const passwordHash = await new PasswordHasher(context.config.auth.argon2).hash(user.password);
  return context.db.transaction().execute((tx) =>
    insertUser(tx, {
      partnerId: partner.id,
      login,
      passwordHash,
      userTypeId: user.userTypeId,
      brandCodes: [...new Set(user.brandCodes)],
      isDemo: user.isDemo,
    }),
  );
}

export function userExists(context: AppContext, login: string): Promise<boolean> {
  return findUserByLogin(context.db, login).then((u) => u !== undefined);
}

async function userIdOf(context: AppContext, login: string): Promise<number> {
  const id = await findUserIdByLogin(context.db, login);
  if (id === undefined) throw new NotFound('UNKNOWN_USER', `No user has the login '${login}'.`, { property: 'login' });
  return id;
}

/**
 * Deactivates a user and revokes the user's refresh tokens; access tokens stop at the guard
 * (user-standing.ts). Recorded in the operators' audit trail as the command line. A user
 * deactivated already stays so (its tokens revoked again, if any; nothing to record).
 */
export async function deactivate(context: AppContext, login: string, reason?: string): Promise<number> {
  const id = await userIdOf(context, login);
  try {
    await setPartnerUserActive(context, 'COMMAND_LINE', id, false, reason);
  } catch (error) {
    if (!(error instanceof PartnerUserUnchanged)) throw error;
    await revokeUserRefreshTokens(context.db, id, context.clock().toISOString());
  }
  return id;
}

/**
 * Re-enables a deactivated user: tokens may be asked for again; no earlier session comes back
 * (user-standing.ts). Recorded in the operators' audit trail as the command line.
 */
export async function reactivate(context: AppContext, login: string, reason?: string): Promise<number> {
  const id = await userIdOf(context, login);
  await setPartnerUserActive(context, 'COMMAND_LINE', id, true, reason);
  return id;
}
