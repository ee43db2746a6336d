import type { Executor } from '../db/database.js';
import { OPERATOR_ROLES, type Operator, type OperatorRole } from './model.js';
import type { OperatorRow } from './tables.js';

/** An operator with what signing in and managing the account need (never leaves this area). */
export interface OperatorAccount extends Operator {
  readonly passwordHash: string;
  readonly secondFactorSealed: string | undefined;
  readonly lockedUntil: string | undefined;
  readonly disabledAt: string | undefined;
  readonly sessionsValidAfter: string | undefined;
  readonly isDemo: boolean;
  readonly createdAt: string;
}

/** The form a username is unique in (case-insensitively). */
export const usernameKey = (username: string) => username.trim().toLowerCase();

const roleOf = (value: string): OperatorRole => {
  const role = OPERATOR_ROLES.find((r) => r === value);
  if (!role) throw new Error(`operator has an unknown role ${JSON.stringify(value)}`);
  return role;
};

function accountOf(row: OperatorRow): OperatorAccount {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    role: roleOf(row.role),
    passwordHash: row.password_hash,
    secondFactorSealed: row.totp_secret_sealed ?? undefined,
    lockedUntil: row.locked_until ?? undefined,
    disabledAt: row.disabled_at ?? undefined,
    sessionsValidAfter: row.sessions_valid_after ?? undefined,
    isDemo: row.is_demo === 1,
    createdAt: row.created_at,
  };
}

/** Inserts an operator without a second factor (set it next, in the same transaction); returns its id. */
export async function insertOperator(
  db: Executor,
  operator: {
    username: string;
    displayName: string;
    role: OperatorRole;
    passwordHash: string;
    isDemo: boolean;
    at: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('operator')
    .values({
      username: operator.username.trim(),
      username_key: usernameKey(operator.username),
      display_name: operator.displayName,
      role: operator.role,
      password_hash: operator.passwordHash,
      totp_secret_sealed: null,
      last_totp_step: null,
      locked_until: null,
      disabled_at: null,
      sessions_valid_after: null,
      is_demo: operator.isDemo ? 1 : 0,
      created_at: operator.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findOperatorByUsername(db: Executor, username: string): Promise<OperatorAccount | undefined> {
  const row = await db
    .selectFrom('operator')
    .selectAll()
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst();
  return row && accountOf(row);
}

export async function findOperatorById(db: Executor, id: number): Promise<OperatorAccount | undefined> {
  const row = await db.selectFrom('operator').selectAll().where('id', '=', id).executeTakeFirst();
  return row && accountOf(row);
}

/** Every operator, by username. */
export async function listOperatorAccounts(db: Executor): Promise<OperatorAccount[]> {
  const rows = await db.selectFrom('operator').selectAll().orderBy('username_key').execute();
  return rows.map(accountOf);
}

/** Sets (or with null removes) the sealed second-factor secret; codes of an older secret no longer count. */
export async function setSecondFactor(db: Executor, id: number, sealed: string | null): Promise<void> {
  await db
    .updateTable('operator')
    .set({ totp_secret_sealed: sealed, last_totp_step: null })
    .where('id', '=', id)
    .execute();
}

/**
 * Takes one sign-in attempt before the password is checked: false when the account is locked or
 * already has `limit` attempts in flight or failed, so parallel guesses never exceed the limit.
 */
export async function takeSignInAttempt(db: Executor, id: number, now: string, limit: number): Promise<boolean> {
  const result = await db
    .updateTable('operator')
    .set((eb) => ({ failed_sign_ins: eb('failed_sign_ins', '+', 1) }))
    .where('id', '=', id)
    .where('failed_sign_ins', '<', limit)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** After a failed attempt: locks the account until `until` when it has reached `limit` failures (the count starts again). */
export async function lockIfAtLimit(db: Executor, id: number, limit: number, until: string): Promise<boolean> {
  const result = await db
    .updateTable('operator')
    .set({ locked_until: until, failed_sign_ins: 0 })
    .where('id', '=', id)
    .where('failed_sign_ins', '>=', limit)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A successful sign-in: the failure count starts again and, with a second factor, its time step is
 * remembered. False when a code of this step (or a later one) was already accepted: a replay.
 */
export async function acceptSignIn(db: Executor, id: number, totpStep: number | undefined): Promise<boolean> {
  let query = db.updateTable('operator').set({ failed_sign_ins: 0 }).where('id', '=', id);
  if (totpStep !== undefined)
    query = query
      .set({ last_totp_step: totpStep })
      .where((eb) => eb.or([eb('last_totp_step', 'is', null), eb('last_totp_step', '<', totpStep)]));
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Clears a lock and the failure count. */
export async function unlockOperator(db: Executor, id: number): Promise<void> {
  await db.updateTable('operator').set({ locked_until: null, failed_sign_ins: 0 }).where('id', '=', id).execute();
}

export async function setDisabledAt(db: Executor, id: number, at: string | null): Promise<void> {
  await db.updateTable('operator').set({ disabled_at: at }).where('id', '=', id).execute();
}

export async function setRole(db: Executor, id: number, role: OperatorRole): Promise<void> {
  await db.updateTable('operator').set({ role }).where('id', '=', id).execute();
}

/** "Sign out everywhere": sessions signed in before `at` are no longer the operator's. */
export async function setSessionsValidAfter(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('operator').set({ sessions_valid_after: at }).where('id', '=', id).execute();
}

/** How many demo operators (published passwords) the database holds. */
export async function countDemoOperators(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('operator')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('is_demo', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
