import type { Executor } from '../db/database.js';
import { Conflict, NotFound } from '../kernel/errors.js';
import { findPartnerUser, revokeUserRefreshTokens, setUserActive, type PartnerUser } from './repository-users.js';

/**
 * Whether a partner user may act (the `user deactivate` / `reactivate` commands and the console's
 * partners page call these). Disabled: no new tokens (the password grant and the refresh grant
 * check the user), every refresh token revoked, access tokens refused by the bearer guard (within
 * USER_STATUS_CACHE_SECONDS in other processes). Re-enabled: the user may sign in again with the
 * same password; nothing issued before stays usable: the refresh tokens revoked on disable stay
 * revoked, so the access tokens of those sessions stay refused too (their family is revoked), and
 * any refresh token still unrevoked (a sign-in that raced the disable) is revoked as well.
 * Both are compare and set on the user's state: run them in the transaction that records who did it.
 */
export class PartnerUserNotFound extends NotFound {
  constructor(userId: number | string) {
    super('UNKNOWN_USER', `No partner user ${String(userId)}.`, { property: 'user' });
  }
}

/** The user is disabled (or enabled) already: another operator, or the CLI, was first. */
export class PartnerUserUnchanged extends Conflict {
  constructor(
    readonly user: PartnerUser,
    active: boolean,
  ) {
    super(
      active ? 'USER_ALREADY_ENABLED' : 'USER_ALREADY_DISABLED',
      `User ${user.login} is ${active ? 'enabled' : 'disabled'} already.`,
      { property: 'user' },
    );
  }
}

export interface StandingChange {
  readonly before: PartnerUser;
  readonly after: PartnerUser;
  /** Refresh tokens revoked by this change. */
  readonly revokedTokens: number;
}

async function change(db: Executor, userId: number, active: boolean, at: string): Promise<StandingChange> {
  const before = await findPartnerUser(db, userId);
  if (!before) throw new PartnerUserNotFound(userId);
  if (!(await setUserActive(db, userId, active, at))) throw new PartnerUserUnchanged(before, active);
  const revokedTokens = await revokeUserRefreshTokens(db, userId, at);
  const after = await findPartnerUser(db, userId);
  if (!after) throw new PartnerUserNotFound(userId);
  return { before, after, revokedTokens };
}

/** Disables an enabled user and revokes the user's refresh tokens. */
export function disableUser(db: Executor, userId: number, at: string): Promise<StandingChange> {
  return change(db, userId, false, at);
}

/** Enables a disabled user; sessions from before stay revoked (see above). */
export function enableUser(db: Executor, userId: number, at: string): Promise<StandingChange> {
  return change(db, userId, true, at);
}
