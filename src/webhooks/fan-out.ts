import type { Tx } from '../db/database.js';
import type { PartnerEvent } from '../events/model.js';
import { enqueue, type NewOutboxMessage } from '../outbox/repository.js';
import { enabledEndpoints } from './repository.js';
import { attemptsOfEvent, deliveryKey, WEBHOOK_DELIVERY } from './repository-attempts.js';

/** What a `webhook-delivery` outbox message carries. */
export interface DeliveryPayload {
  readonly eventId: string;
  readonly endpointId: string;
}

/** The outbox message of one event's delivery to one endpoint (fan-out, and redelivery under the same key). */
export function deliveryMessage(eventId: string, endpointId: string, at: string): NewOutboxMessage {
  const payload: DeliveryPayload = { eventId, endpointId };
  return { key: deliveryKey(eventId, endpointId), kind: WEBHOOK_DELIVERY, payload, at };
}

/** What the event log (events/model.ts `EventWebhooks`) needs of webhooks: deliveries to show, messages to redo. */
export const webhooksOfEventLog = { deliveriesOf: attemptsOfEvent, deliveryMessage } as const;

/**
 * Queues one delivery of a published event per enabled endpoint of its partner and brand that
 * subscribes to its type (an empty list: every type); a `webhook.test` event only to its own
 * endpoint. Runs in the publishing transaction; the key makes a second call a no-op. Answers the
 * endpoints queued.
 */
export async function enqueueDeliveries(tx: Tx, event: PartnerEvent, at: string): Promise<string[]> {
  const endpoints = await enabledEndpoints(tx, { partnerId: event.partnerId, brandCode: event.brandCode });
  const targets = endpoints.filter((e) =>
    event.type === 'webhook.test'
      ? e.id === event.endpointId
      : e.eventTypes.length === 0 || e.eventTypes.includes(event.type),
  );
  for (const endpoint of targets) await enqueue(tx, deliveryMessage(event.id, endpoint.id, at));
  return targets.map((e) => e.id);
}
