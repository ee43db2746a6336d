import { PasswordHasher } from '../../src/auth/passwords.js';
import { DEMO_KEY_ENCRYPTION_SECRET } from '../../src/config/auth.js';
import type { Db } from '../../src/db/database.js';
import type { OperatorDeps } from '../../src/operators/deps.js';

export const NOW = Date.parse('2026-12-05T10:00:00.000Z');
export const MINUTE = 60_000;

/** A movable clock: `clock.at` is the instant every call returns. */
export function movableClock(start = NOW) {
  const clock = Object.assign(() => new Date(clock.at), { at: start });
  return clock;
}

/** The operators' dependencies on a test database: cheap argon2, the demo sealing key, a lockout of 5 for 15 min. */
export function operatorDeps(db: Db, clock: () => Date, overrides: Partial<OperatorDeps> = {}): OperatorDeps {
  return {
    db,
    clock,
    hasher: new PasswordHasher({ memoryKib: 256, timeCost: 1 }),
    keySecret: DEMO_KEY_ENCRYPTION_SECRET,
    lockout: { lockoutAttempts: 5, lockoutMinutes: 15 },
    production: false,
    ...overrides,
  };
}
