import { Type, type Static } from 'typebox';

/**
 * The signing secret of Stripe's webhooks (`POST /webhooks/stripe`), parsed with the rest in
 * config/config.ts (or read from the file STRIPE_WEBHOOK_SECRET_FILE names: config/secret-files.ts). Never printed.
 */
export const StripeWebhookEnvSchema = Type.Object({
  STRIPE_WEBHOOK_SECRET: Type.Optional(
    Type.String({
      minLength: 8,
      description:
        "The endpoint's signing secret Stripe shows (`whsec_…`); unset with no file: the endpoint answers 503.",
    }),
  ),
});

type StripeWebhookEnv = Static<typeof StripeWebhookEnvSchema>;

/** How far a signature's timestamp may be from our clock (Stripe's own default). */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeWebhookConfig {
  /** Unset: no secret configured, nothing can be verified. */
  readonly secret?: string;
  readonly toleranceSeconds: number;
}

export function stripeWebhookConfigFrom(env: StripeWebhookEnv): StripeWebhookConfig {
  return Object.freeze({
    ...(env.STRIPE_WEBHOOK_SECRET ? { secret: env.STRIPE_WEBHOOK_SECRET } : {}),
    toleranceSeconds: STRIPE_WEBHOOK_TOLERANCE_SECONDS,
  });
}
