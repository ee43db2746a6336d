import type { Executor, Tx } from '../../db/database.js';
import type { EventWebhooks, EventWebhookScope, PartnerEvent } from '../model.js';
import { enqueueAll, type NewOutboxMessage } from '../../db/outbox/repository.js';
import { WebhookDisabled, WebhookNotFound } from './errors.js';
import type { WebhookEndpoint } from './model.js';
import { enabledEndpoints, findEndpoint } from './repository.js';
import { attemptsOfEvent, deliveryKey, deliveryStatesOf, WEBHOOK_DELIVERY } from './repository-attempts.js';

/** What a `webhook-delivery` outbox message carries. */
export interface DeliveryPayload {
  readonly eventId: string;
  readonly endpointId: string;
}

/**
 * The outbox message of one event's delivery to one endpoint (fan-out, and redelivery under the same
 * key), in its partner's share of the webhook lanes (every brand of the partner together).
 */
export function deliveryMessage(event: PartnerEvent, endpointId: string, at: string): NewOutboxMessage {
  const payload: DeliveryPayload = { eventId: event.id, endpointId };
  const share = `partner:${String(event.partnerId)}`;
  return { key: deliveryKey(event.id, endpointId), kind: WEBHOOK_DELIVERY, payload, at, share };
}

/**
 * Whether the event goes to the endpoint: subscribed to its type (an empty list: every type); a
 * `webhook.test` event only to its own endpoint.
 */
function receives(endpoint: WebhookEndpoint, event: PartnerEvent): boolean {
  return event.type === 'webhook.test'
    ? endpoint.id === event.endpointId
    : endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(event.type);
}

/** The enabled, live endpoints of the event's partner and brand that receive it (fan-out's targets now). */
async function liveEndpointsFor(db: Executor, event: PartnerEvent): Promise<string[]> {
  const endpoints = await enabledEndpoints(db, { partnerId: event.partnerId, brandCode: event.brandCode });
  return endpoints.filter((e) => receives(e, event)).map((e) => e.id);
}

/** 404 unless a live endpoint of the partner and brand (not told apart); 409 when it is disabled. */
async function assertLiveEndpoint(db: Executor, scope: EventWebhookScope, webhookId: string): Promise<void> {
  const endpoint = await findEndpoint(db, scope, webhookId);
  if (!endpoint) throw new WebhookNotFound(webhookId);
  if (!endpoint.enabled) throw new WebhookDisabled(webhookId);
}

/**
 * What the event log (events/model.ts `EventWebhooks`) needs of webhooks: deliveries to show,
 * messages to redo, and the endpoints a redelivery may queue (those that missed the event too).
 */
export const webhooksOfEventLog: EventWebhooks = {
  deliveriesOf: attemptsOfEvent,
  deliveryStatesOf,
  deliveryMessage,
  liveEndpointsFor,
  assertLiveEndpoint,
};

/**
 * Queues one delivery of each published event per enabled endpoint of its partner and brand that
 * subscribes to its type (an empty list: every type); a `webhook.test` event only to its own
 * endpoint. Runs in the publishing transaction: one read of the endpoints per partner and brand,
 * one multi-row insert; the key makes a second call a no-op. Answers the endpoints queued per event.
 */
export async function enqueueDeliveriesOf(
  tx: Tx,
  events: readonly PartnerEvent[],
  at: string,
): Promise<Map<string, string[]>> {
  const endpointsOf = new Map<string, WebhookEndpoint[]>();
  const targets = new Map<string, string[]>();
  const messages: NewOutboxMessage[] = [];
  for (const event of events) {
    const scope = { partnerId: event.partnerId, brandCode: event.brandCode };
    const key = `${String(scope.partnerId)}:${scope.brandCode}`;
    const endpoints = endpointsOf.get(key) ?? (await enabledEndpoints(tx, scope));
    endpointsOf.set(key, endpoints);
    const ids = endpoints.filter((e) => receives(e, event)).map((e) => e.id);
    targets.set(event.id, ids);
    for (const id of ids) messages.push(deliveryMessage(event, id, at));
  }
  await enqueueAll(tx, messages);
  return targets;
}

/** `enqueueDeliveriesOf` for one event: the endpoints queued. */
export async function enqueueDeliveries(tx: Tx, event: PartnerEvent, at: string): Promise<string[]> {
  return (await enqueueDeliveriesOf(tx, [event], at)).get(event.id) ?? [];
}
