import { Type, type Static } from 'typebox';

/** The environment variables of operator accounts (parsed with the rest in src/config/config.ts). */
export const OperatorEnvSchema = Type.Object({
  OPERATOR_LOCKOUT_ATTEMPTS: Type.Integer({
    default: 5,
    minimum: 1,
    maximum: 100,
    description:
      "Consecutive failed console sign-ins (wrong password or one-time code) after which an operator's account is locked; a successful sign-in resets the count.",
  }),
  OPERATOR_LOCKOUT_MINUTES: Type.Integer({
    default: 15,
    minimum: 1,
    maximum: 1440,
    description:
      'Minutes a locked operator account refuses every sign-in, even a right one (or until `operator unlock`).',
  }),
});

export interface OperatorConfig {
  /** Failed sign-ins in a row that lock the account (operators/sign-in.ts). */
  readonly lockoutAttempts: number;
  /** How long a lock lasts. */
  readonly lockoutMinutes: number;
}

export function operatorConfigFrom(env: Static<typeof OperatorEnvSchema>): OperatorConfig {
  return { lockoutAttempts: env.OPERATOR_LOCKOUT_ATTEMPTS, lockoutMinutes: env.OPERATOR_LOCKOUT_MINUTES };
}
