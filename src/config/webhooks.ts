import { Type, type Static } from 'typebox';

/** The environment variables of webhook delivery (parsed with the rest in src/config/config.ts). */
export const WebhookEnvSchema = Type.Object({
  WEBHOOK_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 100,
    maximum: 60_000,
    description: 'Longest a webhook delivery attempt may take (connection, answer and its first KiB); then it failed.',
  }),
  WEBHOOK_RETRY_DELAYS: Type.String({
    default: '5s,5m,30m,2h,5h,10h,14h,20h,24h',
    pattern: '^\\s*\\d+(ms|s|m|h)\\s*(,\\s*\\d+(ms|s|m|h)\\s*)*$',
    description:
      'Delays before the 2nd, 3rd … delivery attempt of an event to an endpoint (Standard Webhooks schedule): attempts = delays + 1.',
  }),
  WEBHOOK_DISABLE_AFTER_DAYS: Type.Number({
    default: 3,
    minimum: 0,
    maximum: 90,
    description:
      'An endpoint whose deliveries have failed without a success for this long is disabled (reason FAILING).',
  }),
  WEBHOOK_CONCURRENCY: Type.Integer({
    default: 16,
    minimum: 1,
    maximum: 256,
    description:
      'Webhook deliveries each server process POSTs at once, in lanes of their own (e-mails have OUTBOX_CONCURRENCY, event publishing two).',
  }),
  WEBHOOK_CONCURRENCY_PER_PARTNER: Type.Integer({
    default: 4,
    minimum: 1,
    maximum: 256,
    description:
      "One partner's webhook deliveries in flight at once, all server processes together: its slow endpoints hold no more lanes than this.",
  }),
  WEBHOOK_TEST_EVENTS_PER_PARTNER_PER_HOUR: Type.Integer({
    default: 60,
    minimum: 0,
    maximum: 100_000,
    description: 'Test events (`POST …/webhooks/{webhookId}/test`) one partner may send in a UTC hour; past it, 429.',
  }),
  WEBHOOK_REDELIVERIES_PER_PARTNER_PER_HOUR: Type.Integer({
    default: 2000,
    minimum: 0,
    maximum: 1_000_000,
    description:
      'Deliveries one partner may have queued again by redeliveries (`POST …/events/…/redeliver`) in a UTC hour; past it, 429.',
  }),
  WEBHOOK_SECRET_OVERLAP_SECONDS: Type.Integer({
    default: 86_400,
    minimum: 0,
    maximum: 604_800,
    description:
      'After a secret rotation, the previous secret keeps signing (a second signature) this long by default.',
  }),
});

/** An endpoint's URL as partners register it: at most this many per partner and brand (deleted ones not counted). */
export const MAX_ENDPOINTS_PER_BRAND = 20;

export interface WebhookConfig {
  /** Per delivery attempt. */
  readonly timeoutMs: number;
  /** Delays before attempts 2, 3, … (the outbox kind's `retryDelaysMs`). */
  readonly retryDelaysMs: readonly number[];
  /** Failing this long (no success since the first failure) disables the endpoint. */
  readonly disableAfterMs: number;
  /** Default overlap of the previous secret after a rotation. */
  readonly secretOverlapSeconds: number;
  /** Deliveries each process POSTs at once (the webhook worker's lanes). */
  readonly concurrency: number;
  /** One partner's deliveries in flight at once, every process together (the worker's `inFlightPerShare`). */
  readonly concurrencyPerPartner: number;
  /** Per partner and UTC hour: test events, and deliveries queued again by redeliveries. */
  readonly budgets: { readonly testEventsPerHour: number; readonly redeliveriesPerHour: number };
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `5s,5m,2h` → milliseconds. */
export function parseDelays(text: string): number[] {
  return text.split(',').map((part) => {
    const match = /^(\d+)(ms|s|m|h)$/.exec(part.trim());
    if (!match) throw new Error(`not a delay: ${part}`);
    return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  });
}

/**
 * Settings refused together: an attempt must end inside the outbox lease that covers it, or
 * another process takes the delivery over while it is still in flight (a second, concurrent POST).
 */
export function webhookConfigProblems(
  env: Static<typeof WebhookEnvSchema> & { OUTBOX_LEASE_SECONDS: number },
): string[] {
  return env.WEBHOOK_TIMEOUT_MS < env.OUTBOX_LEASE_SECONDS * 1000
    ? []
    : ['WEBHOOK_TIMEOUT_MS: must be shorter than OUTBOX_LEASE_SECONDS (the lease must outlast an attempt)'];
}

export function webhookConfigFrom(env: Static<typeof WebhookEnvSchema>): WebhookConfig {
  return {
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    retryDelaysMs: Object.freeze(parseDelays(env.WEBHOOK_RETRY_DELAYS)),
    disableAfterMs: env.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000,
    secretOverlapSeconds: env.WEBHOOK_SECRET_OVERLAP_SECONDS,
    concurrency: env.WEBHOOK_CONCURRENCY,
    concurrencyPerPartner: env.WEBHOOK_CONCURRENCY_PER_PARTNER,
    budgets: {
      testEventsPerHour: env.WEBHOOK_TEST_EVENTS_PER_PARTNER_PER_HOUR,
      redeliveriesPerHour: env.WEBHOOK_REDELIVERIES_PER_PARTNER_PER_HOUR,
    },
  };
}
