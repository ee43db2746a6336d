import { Type, type Static } from 'typebox';

/** The environment variables of amendments and cancellations (parsed with the rest in src/config/config.ts). */
/**
 * The steps of a change confirmation after which the crash-test hook may kill the process: the
 * hold's commit, a 3-D Secure continuation's key recorded, the gateway's approval, the applying
 * commit, the gateway's capture and its commit, one refund line paid (not yet recorded), every
 * refund paid, a refund's or a change without money's settling commit.
 */
export const CHANGE_CRASH_POINTS = [
  'hold',
  'continue',
  'authorise',
  'apply',
  'capture',
  'captured',
  'refund-line',
  'refund',
  'settle',
] as const;
export type ChangeCrashPoint = (typeof CHANGE_CRASH_POINTS)[number];

export const PolicyChangeEnvSchema = Type.Object({
  POLICY_CHANGE_PREVIEW_SECONDS: Type.Integer({
    default: 1800,
    minimum: 60,
    maximum: 86_400,
    description: 'How long an amendment or cancellation preview may be confirmed (its `expiresAt`).',
  }),
  POLICY_CHANGE_REFUND_RETRY_SECONDS: Type.Integer({
    default: 21_600,
    minimum: 0,
    maximum: 604_800,
    description:
      'How long a refund that meets gateway outages is retried (from its confirmation) before it ends: nothing refunded → FAILED (`REFUND_GATEWAY_UNAVAILABLE`), part refunded → that part booked and the change left to an operator.',
  }),
  POLICY_CHANGE_CRASH_AFTER: Type.Optional(
    Type.Enum([...CHANGE_CRASH_POINTS], {
      description: 'Test hook: SIGKILL the process after this step of a change confirmation. Refused in production.',
    }),
  ),
});

export interface PolicyChangeConfig {
  readonly previewSeconds: number;
  /** How long a refund is retried through gateway outages before it ends (settlement.ts `holdRefund`). */
  readonly refundRetrySeconds: number;
  /** Crash-test hook (never in production): kill the process right after this step. */
  readonly crashAfter?: ChangeCrashPoint;
}

export function policyChangeConfigFrom(env: Static<typeof PolicyChangeEnvSchema>): PolicyChangeConfig {
  return {
    previewSeconds: env.POLICY_CHANGE_PREVIEW_SECONDS,
    refundRetrySeconds: env.POLICY_CHANGE_REFUND_RETRY_SECONDS,
    ...(env.POLICY_CHANGE_CRASH_AFTER ? { crashAfter: env.POLICY_CHANGE_CRASH_AFTER } : {}),
  };
}
