import type { Tx } from '../db/database.js';
import type { PartnerEvent } from '../events/model.js';
import { enqueue } from '../outbox/repository.js';
import { enabledEndpoints } from './repository.js';
import { WEBHOOK_DELIVERY, deliveryKey } from './repository-attempts.js';

/** What a `webhook-delivery` outbox message carries. */
export interface DeliveryPayload {
  readonly eventId: string;
  readonly endpointId: string;
}

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
  for (const endpoint of targets) {
    const payload: DeliveryPayload = { eventId: event.id, endpointId: endpoint.id };
    await enqueue(tx, { key: deliveryKey(event.id, endpoint.id), kind: WEBHOOK_DELIVERY, payload, at });
  }
  return targets.map((e) => e.id);
}
