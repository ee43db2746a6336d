import { Type, type Static } from 'typebox';

/** The environment variables of medical screening (parsed with the rest in src/config/config.ts). */
export const ScreeningEnvSchema = Type.Object({
  SCREENING_RETENTION_DAYS: Type.Integer({
    default: 730,
    minimum: 1,
    maximum: 3650,
    description:
      "Days after a policy's cover ends that its screenings' sealed health data (answers, conditions, authorized person) is kept for claims and complaints; then erased (reference, date, outcome and amounts stay).",
  }),
  SCREENING_UNSOLD_RETENTION_DAYS: Type.Integer({
    default: 30,
    minimum: 1,
    maximum: 365,
    description: "Days after an unbought quote's last change that its screenings are deleted whole.",
  }),
});

export interface ScreeningConfig {
  readonly retentionDays: number;
  readonly unsoldRetentionDays: number;
}

export function screeningConfigFrom(env: Static<typeof ScreeningEnvSchema>): ScreeningConfig {
  return { retentionDays: env.SCREENING_RETENTION_DAYS, unsoldRetentionDays: env.SCREENING_UNSOLD_RETENTION_DAYS };
}
