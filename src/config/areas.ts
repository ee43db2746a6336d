import { Type, type Static } from 'typebox';
import { DocumentEnvSchema, documentConfigFrom } from './documents.js';
import { MailEnvSchema, mailConfigFrom, mailConfigProblems } from './mail.js';
import { OutboxEnvSchema, outboxConfigFrom, outboxConfigProblems } from './outbox.js';
import { WebhookEnvSchema, webhookConfigFrom, webhookConfigProblems } from './webhooks.js';
import { PolicyChangeEnvSchema, policyChangeConfigFrom } from './policy-changes.js';
import { DeploymentEnvSchema, deploymentConfigProblems, migratesOnStart, trustedProxiesFrom } from './deployment.js';
import { StripeWebhookEnvSchema, stripeWebhookConfigFrom } from './stripe-webhooks.js';
import { ScreeningEnvSchema, screeningConfigFrom } from './screening.js';
import { ConsoleEnvSchema, consoleConfigFrom, consoleConfigProblems } from './console.js';
import { OperatorEnvSchema, operatorConfigFrom } from './operators.js';

/**
 * The settings of the areas that keep their own, parsed with the rest in config/config.ts. Each is a
 * schema-only module (typebox, nothing of its area), so config/ stays below the areas; three still
 * live in their area's folder until they move here (see .dependency-cruiser.json).
 */
export const AreaEnvSchema = Type.Object({
  ...PolicyChangeEnvSchema.properties,
  ...OutboxEnvSchema.properties,
  ...MailEnvSchema.properties,
  ...DocumentEnvSchema.properties,
  ...WebhookEnvSchema.properties,
  ...DeploymentEnvSchema.properties,
  ...StripeWebhookEnvSchema.properties,
  ...ScreeningEnvSchema.properties,
  ...ConsoleEnvSchema.properties,
  ...OperatorEnvSchema.properties,
});

export type AreaConfigs = ReturnType<typeof areaConfigsFrom>;

export function areaConfigProblems(env: Static<typeof AreaEnvSchema>, production: boolean): string[] {
  return [
    ...mailConfigProblems(env, production),
    ...outboxConfigProblems(env, production),
    ...webhookConfigProblems(env),
    ...deploymentConfigProblems(env),
    ...consoleConfigProblems(env, production),
  ];
}

export function areaConfigsFrom(env: Static<typeof AreaEnvSchema>, production: boolean) {
  return {
    /** Amendment and cancellation previews and their crash-test hook. */
    policyChanges: policyChangeConfigFrom(env),
    /** The outbox's delivery worker: pass interval, lease, attempts, back-off, its crash-test hook. */
    outbox: outboxConfigFrom(env),
    /** SMTP, or the staging sandbox mailbox. */
    mail: mailConfigFrom(env),
    /** The customer's document link. */
    documents: documentConfigFrom(env),
    /** Webhook delivery: timeout, retry schedule, disabling, secret rotation overlap. */
    webhooks: webhookConfigFrom(env),
    /** The reverse proxies whose X-Forwarded-* headers are believed (the client's address, the scheme). */
    trustedProxies: trustedProxiesFrom(env),
    /** `serve` applies pending migrations (else a separate `migrate` step must have). */
    migrateOnStart: migratesOnStart(env),
    /** The signing secret of Stripe's webhooks (payments/stripe/webhooks/). */
    stripeWebhooks: stripeWebhookConfigFrom(env),
    /** Screenings: how long their health data is kept (screening/purge.ts); the hosted page's link. */
    screening: screeningConfigFrom(env),
    /** The operators' console: session cookie secret, idle and absolute timeouts. */
    console: consoleConfigFrom(env, production),
    /** Operator accounts: the console sign-in's lockout. */
    operators: operatorConfigFrom(env),
  } as const;
}
