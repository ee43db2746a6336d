import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { DeliveryAttemptView, DeliveryState, EventDeliveries, EventWebhookScope } from '../model.js';
import { findEvent } from '../repository.js';
import { messageStates, type OutboxState } from '../../db/outbox/repository.js';
import { endpointIdsEver } from './repository.js';
import { reusableInsert } from '../../db/reusable-query.js';

/** The outbox kind of one event's delivery to one endpoint, and its message key. */
export const WEBHOOK_DELIVERY = 'webhook-delivery';
export const deliveryKey = (eventId: string, endpointId: string) => `webhook:${eventId}:${endpointId}`;

/** One attempt to record: of which event to which endpoint, and how it went. */
export interface NewAttempt extends Omit<DeliveryAttemptView, 'attempt'> {
  readonly eventId: string;
  readonly endpointId: string;
}

/** An attempt's values as bound parameters (`reusableInsert`: every one a parameter, none undefined). */
interface AttemptValues {
  eventId: string;
  endpointId: string;
  attemptedAt: string;
  outcome: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}
const ATTEMPT_NAMES = [
  'eventId',
  'endpointId',
  'attemptedAt',
  'outcome',
  'statusCode',
  'latencyMs',
  'error',
  'responseExcerpt',
] as const;

// Compiled once per row count (db/reusable-query.ts): each row numbered after the last attempt of
// its event and endpoint by its own subquery.
const insertAttempts = reusableInsert([...ATTEMPT_NAMES], (db, rows: AttemptValues[]) =>
  db
    .insertInto('webhook_delivery_attempt')
    .values(
      rows.map((v) => ({
        event_id: v.eventId,
        endpoint_public_id: v.endpointId,
        attempt: db
          .selectFrom('webhook_delivery_attempt')
          .select(sql<number>`coalesce(max(attempt), 0) + 1`.as('next'))
          .where('event_id', '=', v.eventId)
          .where('endpoint_public_id', '=', v.endpointId),
        attempted_at: v.attemptedAt,
        outcome: v.outcome,
        status_code: v.statusCode,
        latency_ms: v.latencyMs,
        error: v.error,
        response_excerpt: v.responseExcerpt,
      })),
    )
    .returning(['event_id', 'endpoint_public_id', 'attempt']),
);

/** Rows per statement of `recordAttempts` (each row count is compiled once: a few sizes only). */
const ATTEMPT_ROWS = 32;

/**
 * Records attempts, each numbered after the last one of its event and endpoint, in one statement
 * per 32; answers their numbers in the order given. Two attempts of the same event and endpoint in
 * one call would take the same number: the unique constraint refuses the statement.
 */
export async function recordAttempts(db: Executor, attempts: readonly NewAttempt[]): Promise<number[]> {
  const numbers = new Map<string, number>();
  for (let i = 0; i < attempts.length; i += ATTEMPT_ROWS) {
    const rows = attempts.slice(i, i + ATTEMPT_ROWS).map((a): AttemptValues => ({
      eventId: a.eventId,
      endpointId: a.endpointId,
      attemptedAt: a.attemptedAt,
      outcome: a.outcome,
      statusCode: a.statusCode ?? null,
      latencyMs: Math.round(a.latencyMs),
      error: a.error ?? null,
      responseExcerpt: a.responseExcerpt ?? null,
    }));
    const { rows: recorded } = await insertAttempts(db, rows);
    for (const r of recorded) numbers.set(deliveryKey(r.event_id, r.endpoint_public_id), r.attempt);
  }
  return attempts.map((a) => numbers.get(deliveryKey(a.eventId, a.endpointId)) as number);
}

/** Records one attempt, numbered after the last one of this event and endpoint (one statement). */
export async function recordAttempt(
  db: Executor,
  eventId: string,
  endpointId: string,
  attempt: Omit<DeliveryAttemptView, 'attempt'>,
): Promise<number> {
  const [number] = await recordAttempts(db, [{ ...attempt, eventId, endpointId }]);
  return number as number;
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
