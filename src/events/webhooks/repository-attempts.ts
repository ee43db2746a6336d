import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { DeliveryAttemptView, DeliveryState, EventDeliveries, EventWebhookScope } from '../model.js';
import { findEvent } from '../repository.js';
import { messageStates, type OutboxState } from '../../db/outbox/repository.js';
import { endpointIdsEver } from './repository.js';

/** The outbox kind of one event's delivery to one endpoint, and its message key. */
export const WEBHOOK_DELIVERY = 'webhook-delivery';
export const deliveryKey = (eventId: string, endpointId: string) => `webhook:${eventId}:${endpointId}`;

/** Records one attempt, numbered after the last one of this event and endpoint (one statement). */
export async function recordAttempt(
  db: Executor,
  eventId: string,
  endpointId: string,
  attempt: Omit<DeliveryAttemptView, 'attempt'>,
): Promise<number> {
  const row = await db
    .insertInto('webhook_delivery_attempt')
    .values({
      event_id: eventId,
      endpoint_public_id: endpointId,
      attempt: db
        .selectFrom('webhook_delivery_attempt')
        .select(sql<number>`coalesce(max(attempt), 0) + 1`.as('next'))
        .where('event_id', '=', eventId)
        .where('endpoint_public_id', '=', endpointId),
      attempted_at: attempt.attemptedAt,
      outcome: attempt.outcome,
      status_code: attempt.statusCode ?? null,
      latency_ms: Math.round(attempt.latencyMs),
      error: attempt.error ?? null,
      response_excerpt: attempt.responseExcerpt ?? null,
    })
    .returning('attempt')
    .executeTakeFirstOrThrow();
  return row.attempt;
}

/**
 * Every delivery of an event, per endpoint (in the order the endpoints were first queued), for GET
 * event. The deliveries' outbox messages are read by their exact keys (one per endpoint the event's
 * partner ever had, a handful), so the unique key's index answers on both engines.
 */
export async function attemptsOfEvent(db: Executor, eventId: string): Promise<EventDeliveries[]> {
  const event = await findEvent(db, eventId);
  if (!event) return [];
  const endpoints = await endpointIdsEver(db, { partnerId: event.partnerId, brandCode: event.brandCode });
  const states = await messageStates(
    db,
    endpoints.map((endpointId) => deliveryKey(eventId, endpointId)),
  );
  const rows = await db
    .selectFrom('webhook_delivery_attempt')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('endpoint_public_id')
    .orderBy('attempt')
    .execute();
  const byEndpoint = new Map<string, { state?: OutboxState; attempts: DeliveryAttemptView[] }>();
  const prefix = deliveryKey(eventId, '');
  for (const [key, state] of states) byEndpoint.set(key.slice(prefix.length), { state, attempts: [] });
  for (const r of rows) {
    let entry = byEndpoint.get(r.endpoint_public_id);
    if (!entry) byEndpoint.set(r.endpoint_public_id, (entry = { attempts: [] }));
    entry.attempts.push({
      attempt: r.attempt,
      attemptedAt: r.attempted_at,
      outcome: r.outcome as DeliveryAttemptView['outcome'],
      ...(r.status_code === null ? {} : { statusCode: r.status_code }),
      latencyMs: r.latency_ms,
      ...(r.error === null ? {} : { error: r.error }),
      ...(r.response_excerpt === null ? {} : { responseExcerpt: r.response_excerpt }),
    });
  }
  return [...byEndpoint].map(([webhookId, entry]) => ({
    webhookId,
    ...(entry.state === undefined ? {} : { state: entry.state }),
    attempts: entry.attempts,
  }));
}

/** Keys per query when reading many deliveries' states (bound parameters stay far below the engines' limits). */
const KEYS_PER_QUERY = 500;

/**
 * The state of every delivery of these events of one partner and brand: event id → webhook id →
 * state. By exact keys (every event × every endpoint the scope ever had), a few hundred a query.
 */
export async function deliveryStatesOf(
  db: Executor,
  scope: EventWebhookScope,
  eventIds: readonly string[],
): Promise<Map<string, Map<string, DeliveryState>>> {
  const endpoints = await endpointIdsEver(db, scope);
  const owners = new Map<string, readonly [string, string]>();
  for (const eventId of eventIds)
    for (const endpointId of endpoints) owners.set(deliveryKey(eventId, endpointId), [eventId, endpointId]);
  const keys = [...owners.keys()];
  const states = new Map<string, Map<string, DeliveryState>>();
  for (let i = 0; i < keys.length; i += KEYS_PER_QUERY)
    for (const [key, state] of await messageStates(db, keys.slice(i, i + KEYS_PER_QUERY))) {
      const [eventId, endpointId] = owners.get(key) as readonly [string, string];
      const ofEvent = states.get(eventId) ?? new Map<string, DeliveryState>();
      states.set(eventId, ofEvent.set(endpointId, state));
    }
  return states;
}
