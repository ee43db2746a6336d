import { Type, type Static } from 'typebox';

/** The environment variables of medical screening (parsed with the rest in src/config/config.ts). */
export const ScreeningEnvSchema = Type.Object({
  SCREENING_LINK_HOURS: Type.Integer({
    default: 24,
    minimum: 1,
    maximum: 720,
    description:
      "Hours a traveller's hosted screening link (`/screening/v1/{value}`) opens after it is made; never past the start (UTC) of the quote's departure day.",
  }),
});

export function screeningConfigFrom(env: Static<typeof ScreeningEnvSchema>) {
  return {
    /** A hosted-page link opens this many hours (at most until the departure day begins). */
    linkHours: env.SCREENING_LINK_HOURS,
  } as const;
}
