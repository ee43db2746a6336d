import { PasswordHasher } from '../auth/passwords.js';
import type { OperatorConfig } from '../config/operators.js';
import type { AppContext, Clock } from '../context.js';
import type { Db } from '../db/database.js';

/** What the operators' services need: the database, the clock, password hashing and the sealing key. */
export interface OperatorDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly hasher: PasswordHasher;
  /** KEY_ENCRYPTION_SECRET: seals and opens the second-factor secrets. */
  readonly keySecret: string;
  readonly lockout: OperatorConfig;
  /** APP_ENV=production: a second factor is required. */
  readonly production: boolean;
}

/** The operators' dependencies from the app's context (argon2 costs are the partner users' own). */
export function operatorDepsFor(context: AppContext): OperatorDeps {
  return {
    db: context.db,
    clock: context.clock,
    hasher: new PasswordHasher(context.config.auth.argon2),
    keySecret: context.config.auth.keyEncryptionSecret,
    lockout: context.config.operators,
    production: context.config.env === 'production',
  };
}
