import { POLICY_DOCUMENTS } from './documents/messages.js';
import { PUBLISH_EVENT } from './events/repository.js';
import { WEBHOOK_DELIVERY } from './events/webhooks/repository-attempts.js';

/**
 * Every kind of outbox message a server process delivers (server.ts `outboxPools`, checked equal by
 * a test): the kinds whose delivery lag /metrics and /ready show (db/outbox/lag.ts).
 */
export const DELIVERED_KINDS = [POLICY_DOCUMENTS, PUBLISH_EVENT, WEBHOOK_DELIVERY] as const;
