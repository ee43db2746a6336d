import type { Executor } from '../db/database.js';
import type { OperatorDeps } from './deps.js';
import { recordOperatorAction } from './audit-repository.js';
import { NO_OPERATOR } from './audit.js';
import type { Operator } from './model.js';
import {
  acceptSignIn,
  findOperatorByUsername,
  lockIfAtLimit,
  takeSignInAttempt,
  type OperatorAccount,
} from './repository.js';
import { acceptedStep, unsealSecondFactor } from './second-factor.js';
import { lockUnknownIfAtLimit, takeUnknownSignInAttempt, unknownUsernameKey } from './unknown-sign-in-repository.js';

export type SignInDeps = OperatorDeps;

export interface SignInCredentials {
  readonly username: string;
  readonly password: string;
  /** The 6-digit TOTP code; required when the operator has a second factor. */
  readonly code?: string;
}

/** Why a sign-in was refused, as the console may say it: never which of name, password or code was wrong. */
export type SignInRefusal = 'CREDENTIALS' | 'LOCKED' | 'SECOND_FACTOR_REQUIRED';
export type SignInOutcome = { readonly signedIn: Operator } | { readonly refused: SignInRefusal };

/** What the audit trail records of a failure (never the password or the code). */
type FailureReason =
  'PASSWORD' | 'SECOND_FACTOR' | 'SECOND_FACTOR_REPLAYED' | 'SECOND_FACTOR_NOT_SET_UP' | 'DISABLED' | 'LOCKED';

const operatorOf = (account: OperatorAccount): Operator => ({
  id: account.id,
  username: account.username,
  displayName: account.displayName,
  role: account.role,
});

function audit(db: Executor, account: OperatorAccount, at: string, action: string, reason?: FailureReason) {
  return recordOperatorAction(db, {
    // A failed attempt is nobody's until it succeeds: whoever typed it is not known to be the operator.
    operatorId: action === 'operator.sign_in' ? account.id : NO_OPERATOR,
    action,
    subjectType: 'operator',
    subjectId: String(account.id),
    ...(reason ? { reason } : {}),
    at,
  });
}

/**
 * Signs an operator in with password and (when set up) a TOTP code. An unknown username and a wrong
 * password are refused alike and cost alike (a dummy argon2 check; its failures locked out alike). Each attempt is counted before
 * the password is checked, so parallel guesses never pass OPERATOR_LOCKOUT_ATTEMPTS; at that many
 * failures in a row the account refuses every sign-in for OPERATOR_LOCKOUT_MINUTES. A code is
 * accepted once: its time step is remembered and a code of that step or an older one is refused.
 */
export async function signIn(deps: SignInDeps, credentials: SignInCredentials): Promise<SignInOutcome> {
  const now = deps.clock();
  const at = now.toISOString();
  const account = await findOperatorByUsername(deps.db, credentials.username);
  const until = new Date(now.getTime() + deps.lockout.lockoutMinutes * 60_000).toISOString();
  if (!account) return signInUnknown(deps, credentials, at, until);
  if (!(await takeSignInAttempt(deps.db, account.id, at, deps.lockout.lockoutAttempts))) {
    await deps.hasher.verifyDummy(credentials.password);
    await audit(deps.db, account, at, 'operator.sign_in_failed', 'LOCKED');
    return { refused: 'LOCKED' };
  }

  const checked = await checkCredentials(deps, account, credentials, now);
  if (typeof checked !== 'string') {
    const accepted = await deps.db.transaction().execute(async (tx) => {
      // False when another sign-in used this code (or a later one) first: a replay, a failure.
      if (!(await acceptSignIn(tx, account.id, checked.step))) return false;
      await audit(tx, account, at, 'operator.sign_in');
      return true;
    });
    if (accepted) return { signedIn: operatorOf(account) };
  }
  const failure = typeof checked === 'string' ? checked : 'SECOND_FACTOR_REPLAYED';
  await deps.db.transaction().execute(async (tx) => {
    await audit(tx, account, at, 'operator.sign_in_failed', failure);
    if (await lockIfAtLimit(tx, account.id, deps.lockout.lockoutAttempts, until))
      await recordOperatorAction(tx, {
        operatorId: NO_OPERATOR,
        action: 'operator.locked',
        subjectType: 'operator',
        subjectId: String(account.id),
        after: { lockedUntil: until },
        reason: `${deps.lockout.lockoutAttempts} failed sign-ins in a row`,
        at,
      });
  });
  return { refused: failure === 'SECOND_FACTOR_NOT_SET_UP' ? 'SECOND_FACTOR_REQUIRED' : 'CREDENTIALS' };
}

/**
 * A username no operator has: the same work and the same answers as an operator's wrong password,
 * lockout included (counted under the name's hash), so no answer tells which usernames exist. Not
 * audited: there is no operator to record it against, and the typed name may be a password.
 */
async function signInUnknown(
  deps: SignInDeps,
  credentials: SignInCredentials,
  at: string,
  until: string,
): Promise<SignInOutcome> {
  const key = unknownUsernameKey(credentials.username);
  const taken = await takeUnknownSignInAttempt(deps.db, key, at, deps.lockout.lockoutAttempts);
  await deps.hasher.verifyDummy(credentials.password);
  if (!taken) return { refused: 'LOCKED' };
  await lockUnknownIfAtLimit(deps.db, key, deps.lockout.lockoutAttempts, until);
  return { refused: 'CREDENTIALS' };
}

/** The failure, or the accepted TOTP step (none without a second factor). */
async function checkCredentials(
  deps: SignInDeps,
  account: OperatorAccount,
  credentials: SignInCredentials,
  now: Date,
): Promise<FailureReason | { step: number | undefined }> {
  const passwordRight = await deps.hasher.verify(account.passwordHash, credentials.password);
  // A disabled operator is refused like a wrong password, after the same work (and counted alike).
  if (account.disabledAt !== undefined) return 'DISABLED';
  if (!passwordRight) return 'PASSWORD';
  if (account.secondFactorSealed === undefined)
    return deps.production ? 'SECOND_FACTOR_NOT_SET_UP' : { step: undefined };
  const secret = unsealSecondFactor(deps.keySecret, account.id, account.secondFactorSealed);
  if (secret === undefined) throw new Error(`operator ${account.id}: the second-factor secret does not open`);
  const step = acceptedStep(secret, credentials.code ?? '', now);
  return step === undefined ? 'SECOND_FACTOR' : { step };
}
