import { randomBytes } from 'node:crypto';
import type { Executor, Tx } from '../db/database.js';
import { recordOperatorAction } from './audit-repository.js';
import { NO_OPERATOR } from './audit.js';
import type { OperatorDeps } from './deps.js';
import {
  InvalidDisplayName,
  InvalidUsername,
  OperatorNotFound,
  SecondFactorRequired,
  UnknownRole,
  UsernameTaken,
  WeakPassword,
} from './errors.js';
import { OPERATOR_ROLES, type Operator, type OperatorRole } from './model.js';
import {
  findOperatorById,
  findOperatorByUsername,
  insertOperator,
  listOperatorAccounts,
  setDisabledAt,
  setRole,
  setSecondFactor,
  setSessionsValidAfter,
  unlockOperator,
  type OperatorAccount,
} from './repository.js';
import { newSecondFactor, sealSecondFactor, type NewSecondFactor } from './second-factor.js';
import { deleteSessionsOf } from './session-repository.js';

export const MIN_PASSWORD_LENGTH = 12;
const USERNAME = /^[A-Za-z0-9._@-]{3,64}$/;

export interface NewOperator {
  readonly username: string;
  readonly displayName: string;
  readonly role: string;
  /** Omitted: one is generated and returned (shown once). */
  readonly password?: string;
  /** Set up TOTP (the default); false is refused in production. */
  readonly secondFactor: boolean;
  /** A demo operator with a published password (staging only). */
  readonly isDemo?: boolean;
}

export interface CreatedOperator {
  readonly operator: Operator;
  /** The generated password, when none was given: shown once, kept only as its hash. */
  readonly generatedPassword?: string;
  /** The TOTP secret and its otpauth:// URI: shown once, kept only sealed. */
  readonly secondFactor?: NewSecondFactor;
}

/** An operator as `operator list` shows it. */
export interface OperatorSummary extends Operator {
  readonly status: 'ACTIVE' | 'DISABLED' | 'LOCKED';
  readonly hasSecondFactor: boolean;
  readonly createdAt: string;
}

export const roleFrom = (value: string): OperatorRole => {
  const role = OPERATOR_ROLES.find((r) => r === value.toUpperCase());
  if (!role) throw new UnknownRole();
  return role;
};

const operatorOf = (a: OperatorAccount): Operator => ({
  id: a.id,
  username: a.username,
  displayName: a.displayName,
  role: a.role,
});

/** The audit entry of a change to an operator account; the actor is NO_OPERATOR for the command line. */
function audit(
  tx: Executor,
  subject: number,
  at: string,
  action: string,
  change: { before?: unknown; after?: unknown },
  actor = NO_OPERATOR,
) {
  return recordOperatorAction(tx, {
    operatorId: actor,
    action,
    subjectType: 'operator',
    subjectId: String(subject),
    ...change,
    at,
  });
}

async function accountNamed(db: Executor, username: string): Promise<OperatorAccount> {
  const account = await findOperatorByUsername(db, username);
  if (!account) throw new OperatorNotFound();
  return account;
}

/** Creates an operator with a password (given or generated) and, unless refused, a second factor. */
export async function createOperator(deps: OperatorDeps, input: NewOperator): Promise<CreatedOperator> {
  const username = input.username.trim();
  if (!USERNAME.test(username)) throw new InvalidUsername();
  const displayName = input.displayName.trim();
  if (displayName.length < 1 || displayName.length > 100) throw new InvalidDisplayName();
  const role = roleFrom(input.role);
  if (!input.secondFactor && deps.production) throw new SecondFactorRequired();
  const password = input.password ?? randomBytes(18).toString('base64url');
  const generatedPassword = input.password === undefined ? password : undefined;
  if (password.length < MIN_PASSWORD_LENGTH) throw new WeakPassword(MIN_PASSWORD_LENGTH);
  if (await findOperatorByUsername(deps.db, username)) throw new UsernameTaken();
  const passwordHash = await deps.hasher.hash(password);
  const secondFactor = input.secondFactor ? newSecondFactor(username) : undefined;
  const at = deps.clock().toISOString();
  const id = await deps.db
    .transaction()
    .execute(async (tx) => {
      const id = await insertOperator(tx, {
        username,
        displayName,
        role,
        passwordHash,
        isDemo: input.isDemo === true,
        at,
      });
      if (secondFactor) await setSecondFactor(tx, id, sealSecondFactor(deps.keySecret, id, secondFactor.secret));
      await audit(tx, id, at, 'operator.create', {
        after: { username, displayName, role, secondFactor: secondFactor !== undefined },
      });
      return id;
    })
    .catch(async (error: unknown) => {
      // Another process created the same username between the check and the insert.
      if (await findOperatorByUsername(deps.db, username)) throw new UsernameTaken();
      throw error;
    });
  return {
    operator: { id, username, displayName, role },
    ...(generatedPassword ? { generatedPassword } : {}),
    ...(secondFactor ? { secondFactor } : {}),
  };
}

export async function listOperators(deps: Pick<OperatorDeps, 'db' | 'clock'>): Promise<OperatorSummary[]> {
  const now = deps.clock().toISOString();
  return (await listOperatorAccounts(deps.db)).map((a) => ({
    ...operatorOf(a),
    status:
      a.disabledAt !== undefined
        ? 'DISABLED'
        : a.lockedUntil !== undefined && a.lockedUntil > now
          ? 'LOCKED'
          : 'ACTIVE',
    hasSecondFactor: a.secondFactorSealed !== undefined,
    createdAt: a.createdAt,
  }));
}

/** Runs a change of one operator account in a transaction with its audit entry. */
async function change<T>(
  deps: Pick<OperatorDeps, 'db' | 'clock'>,
  username: string,
  work: (tx: Tx, account: OperatorAccount, at: string) => Promise<T>,
): Promise<T> {
  const at = deps.clock().toISOString();
  return deps.db.transaction().execute(async (tx) => work(tx, await accountNamed(tx, username), at));
}

/** No sign-in, and every session ends at once. */
export function disableOperator(deps: Pick<OperatorDeps, 'db' | 'clock'>, username: string): Promise<Operator> {
  return change(deps, username, async (tx, account, at) => {
    if (account.disabledAt === undefined) {
      await setDisabledAt(tx, account.id, at);
      await deleteSessionsOf(tx, account.id);
      await audit(tx, account.id, at, 'operator.disable', { before: { disabled: false }, after: { disabled: true } });
    }
    return operatorOf(account);
  });
}

export function enableOperator(deps: Pick<OperatorDeps, 'db' | 'clock'>, username: string): Promise<Operator> {
  return change(deps, username, async (tx, account, at) => {
    if (account.disabledAt !== undefined) {
      await setDisabledAt(tx, account.id, null);
      await audit(tx, account.id, at, 'operator.enable', { before: { disabled: true }, after: { disabled: false } });
    }
    return operatorOf(account);
  });
}

/** Lifts a lockout before it ends, and starts the failure count again. */
export function unlock(deps: Pick<OperatorDeps, 'db' | 'clock'>, username: string): Promise<Operator> {
  return change(deps, username, async (tx, account, at) => {
    await unlockOperator(tx, account.id);
    await audit(tx, account.id, at, 'operator.unlock', {
      before: { lockedUntil: account.lockedUntil ?? null },
      after: { lockedUntil: null },
    });
    return operatorOf(account);
  });
}

/** A new TOTP secret (the old one's codes stop working); returned to be shown once. */
export function resetSecondFactor(
  deps: OperatorDeps,
  username: string,
): Promise<{ operator: Operator; secondFactor: NewSecondFactor }> {
  return change(deps, username, async (tx, account, at) => {
    const secondFactor = newSecondFactor(account.username);
    await setSecondFactor(tx, account.id, sealSecondFactor(deps.keySecret, account.id, secondFactor.secret));
    await audit(tx, account.id, at, 'operator.reset_second_factor', {
      before: { secondFactor: account.secondFactorSealed !== undefined },
      after: { secondFactor: true },
    });
    return { operator: operatorOf(account), secondFactor };
  });
}

/** A new role, in effect at the operator's next request (the console reads the operator every time). */
export function changeRole(
  deps: Pick<OperatorDeps, 'db' | 'clock'>,
  username: string,
  role: string,
): Promise<Operator> {
  const newRole = roleFrom(role);
  return change(deps, username, async (tx, account, at) => {
    if (account.role !== newRole) {
      await setRole(tx, account.id, newRole);
      await audit(tx, account.id, at, 'operator.set_role', {
        before: { role: account.role },
        after: { role: newRole },
      });
    }
    return { ...operatorOf(account), role: newRole };
  });
}

/**
 * The operator of a console session: undefined when the operator is gone or disabled, or signed
 * out everywhere after `signedInAt` (a session signed in at that very instant is kept: its row was
 * deleted with the others when it was not the one asking).
 */
export async function currentOperator(
  db: Executor,
  operatorId: number,
  signedInAt: string,
): Promise<Operator | undefined> {
  const account = await findOperatorById(db, operatorId);
  if (!account || account.disabledAt !== undefined) return undefined;
  if (account.sessionsValidAfter !== undefined && signedInAt < account.sessionsValidAfter) return undefined;
  return operatorOf(account);
}

/** Ends every session of the operator (the one asking included) and refuses any signed in before now. */
export async function signOutEverywhere(deps: Pick<OperatorDeps, 'db'>, operator: Operator, at: string): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    await setSessionsValidAfter(tx, operator.id, at);
    const ended = await deleteSessionsOf(tx, operator.id);
    await audit(tx, operator.id, at, 'operator.sign_out_everywhere', { after: { sessionsEnded: ended } }, operator.id);
  });
}
