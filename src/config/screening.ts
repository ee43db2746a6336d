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
  SCREENING_LINK_HOURS: Type.Integer({
    default: 24,
    minimum: 1,
    maximum: 720,
    description:
      "Hours a traveller's hosted screening link (`/screening/v1/{value}`) opens after it is made; never past the start (UTC) of the quote's departure day.",
  }),
});

export interface ScreeningConfig {
  /** How long a sold screening's health data is kept after its cover ends (screening/purge.ts). */
  readonly retentionDays: number;
  /** How long an unbought quote's screenings are kept after its last change. */
  readonly unsoldRetentionDays: number;
  /** A hosted-page link opens this many hours (at most until the departure day begins). */
  readonly linkHours: number;
}

export function screeningConfigFrom(env: Static<typeof ScreeningEnvSchema>): ScreeningConfig {
  return {
    retentionDays: env.SCREENING_RETENTION_DAYS,
    unsoldRetentionDays: env.SCREENING_UNSOLD_RETENTION_DAYS,
    linkHours: env.SCREENING_LINK_HOURS,
  };
}
