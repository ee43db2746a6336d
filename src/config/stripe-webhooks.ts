import { readFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';

/**
 * The signing secret of Stripe's webhooks (`POST /webhooks/stripe`), parsed with the rest in
 * config/config.ts: the value itself, or a file holding it (a mounted secret). Never printed.
 */
export const StripeWebhookEnvSchema = Type.Object({
  STRIPE_WEBHOOK_SECRET: Type.Optional(
    Type.String({
      minLength: 8,
      description:
        "The endpoint's signing secret Stripe shows (`whsec_…`); unset with no file: the endpoint answers 503.",
    }),
  ),
  STRIPE_WEBHOOK_SECRET_FILE: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'A file holding STRIPE_WEBHOOK_SECRET (surrounding whitespace ignored).',
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

function secretOf(env: StripeWebhookEnv): { secret?: string; problem?: string } {
  if (env.STRIPE_WEBHOOK_SECRET !== undefined && env.STRIPE_WEBHOOK_SECRET_FILE !== undefined)
    return { problem: 'STRIPE_WEBHOOK_SECRET_FILE: set it or STRIPE_WEBHOOK_SECRET, not both' };
  if (env.STRIPE_WEBHOOK_SECRET_FILE === undefined)
    return env.STRIPE_WEBHOOK_SECRET === undefined ? {} : { secret: env.STRIPE_WEBHOOK_SECRET };
  let text: string;
  try {
    text = readFileSync(env.STRIPE_WEBHOOK_SECRET_FILE, 'utf8').trim();
  } catch {
    return { problem: 'STRIPE_WEBHOOK_SECRET_FILE: the file cannot be read' };
  }
  if (text.length < 8)
    return { problem: 'STRIPE_WEBHOOK_SECRET_FILE: the file holds no secret (8 characters or more)' };
  return { secret: text };
}

export function stripeWebhookConfigProblems(env: StripeWebhookEnv): string[] {
  const { problem } = secretOf(env);
  return problem ? [problem] : [];
}

export function stripeWebhookConfigFrom(env: StripeWebhookEnv): StripeWebhookConfig {
  const { secret } = secretOf(env);
  return Object.freeze({
    ...(secret ? { secret } : {}),
    toleranceSeconds: STRIPE_WEBHOOK_TOLERANCE_SECONDS,
  });
}
