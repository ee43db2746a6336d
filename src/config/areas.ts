import { Type, type Static } from 'typebox';
import { DocumentEnvSchema, documentConfigFrom, type DocumentConfig } from '../documents/config.js';
import { MailEnvSchema, mailConfigFrom, mailConfigProblems, type MailConfig } from '../mail/config.js';
import { OutboxEnvSchema, outboxConfigFrom, outboxConfigProblems, type OutboxConfig } from '../outbox/config.js';
import { WebhookEnvSchema, webhookConfigFrom, webhookConfigProblems, type WebhookConfig } from '../webhooks/config.js';
import { PolicyChangeEnvSchema, policyChangeConfigFrom, type PolicyChangeConfig } from '../policy-changes/config.js';

/** The settings of the areas that keep their own (each in its `config.ts`), parsed with the rest in config/config.ts. */
export const AreaEnvSchema = Type.Object({
  ...PolicyChangeEnvSchema.properties,
  ...OutboxEnvSchema.properties,
  ...MailEnvSchema.properties,
  ...DocumentEnvSchema.properties,
  ...WebhookEnvSchema.properties,
});

export interface AreaConfigs {
  /** Amendment and cancellation previews and their crash-test hook. */
  readonly policyChanges: PolicyChangeConfig;
  /** The outbox's delivery worker: pass interval, lease, attempts, back-off, its crash-test hook. */
  readonly outbox: OutboxConfig;
  /** SMTP, or the staging sandbox mailbox. */
  readonly mail: MailConfig;
  /** The customer's document link. */
  readonly documents: DocumentConfig;
  /** Webhook delivery: timeout, retry schedule, disabling, secret rotation overlap. */
  readonly webhooks: WebhookConfig;
}

export function areaConfigProblems(env: Static<typeof AreaEnvSchema>, production: boolean): string[] {
  return [
    ...mailConfigProblems(env, production),
    ...outboxConfigProblems(env, production),
    ...webhookConfigProblems(env),
  ];
}

export function areaConfigsFrom(env: Static<typeof AreaEnvSchema>): AreaConfigs {
  return {
    policyChanges: policyChangeConfigFrom(env),
    outbox: outboxConfigFrom(env),
    mail: mailConfigFrom(env),
    documents: documentConfigFrom(env),
    webhooks: webhookConfigFrom(env),
  };
}
