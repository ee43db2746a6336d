import { Type, type Static } from 'typebox';

/** The environment variables of amendments and cancellations (parsed with the rest in src/config/config.ts). */
export const PolicyChangeEnvSchema = Type.Object({
  POLICY_CHANGE_PREVIEW_SECONDS: Type.Integer({
    default: 1800,
    minimum: 60,
    maximum: 86_400,
    description: 'How long an amendment or cancellation preview may be confirmed (its `expiresAt`).',
  }),
  POLICY_CHANGE_CRASH_AFTER: Type.Optional(
    Type.Enum(['hold', 'authorise', 'apply', 'refund'], {
      description: 'Test hook: SIGKILL the process after this step of a change confirmation. Refused in production.',
    }),
  ),
});

export interface PolicyChangeConfig {
  readonly previewSeconds: number;
  /** Crash-test hook (never in production): kill the process right after this step. */
  readonly crashAfter?: 'hold' | 'authorise' | 'apply' | 'refund';
}

export function policyChangeConfigFrom(env: Static<typeof PolicyChangeEnvSchema>): PolicyChangeConfig {
  return {
    previewSeconds: env.POLICY_CHANGE_PREVIEW_SECONDS,
    ...(env.POLICY_CHANGE_CRASH_AFTER ? { crashAfter: env.POLICY_CHANGE_CRASH_AFTER } : {}),
  };
}
