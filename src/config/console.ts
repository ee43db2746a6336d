import { randomBytes } from 'node:crypto';
import { Type, type Static } from 'typebox';

/** The environment variables of the operators' console (parsed with the rest in src/config/config.ts). */
export const ConsoleEnvSchema = Type.Object({
  CONSOLE_SESSION_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description:
        "Signs the console's session cookie (32+ characters; or CONSOLE_SESSION_SECRET_FILE). Required when APP_ENV=production; elsewhere a random one per process (sessions end on restart).",
    }),
  ),
  CONSOLE_IDLE_MINUTES: Type.Integer({
    default: 30,
    minimum: 1,
    maximum: 480,
    description: 'Minutes without a request after which an operator must sign in again.',
  }),
  CONSOLE_SESSION_HOURS: Type.Integer({
    default: 10,
    minimum: 1,
    maximum: 24,
    description: 'Hours after sign-in after which an operator must sign in again, however active (absolute timeout).',
  }),
});
type ConsoleEnv = Static<typeof ConsoleEnvSchema>;

export interface ConsoleConfig {
  /** The session cookie's signing secret. */
  readonly sessionSecret: string;
  readonly idleMinutes: number;
  readonly sessionHours: number;
  /** Production: the cookie is `__Host-` prefixed and Secure, and a second factor is required. */
  readonly production: boolean;
}

export function consoleConfigProblems(env: ConsoleEnv, production: boolean): string[] {
  return production && !env.CONSOLE_SESSION_SECRET
    ? ['CONSOLE_SESSION_SECRET: a secret of your own (32+ characters) is required when APP_ENV=production']
    : [];
}

export function consoleConfigFrom(env: ConsoleEnv, production: boolean): ConsoleConfig {
  return {
    sessionSecret: env.CONSOLE_SESSION_SECRET ?? randomBytes(32).toString('base64url'),
    idleMinutes: env.CONSOLE_IDLE_MINUTES,
    sessionHours: env.CONSOLE_SESSION_HOURS,
    production,
  };
}
