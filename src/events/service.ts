import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { purgeSendBudgets, takeSendBudget } from '../db/budgets/repository.js';
import { secondsLeftIn } from '../db/budgets/windows.js';
import { redeliverAll, type NewOutboxMessage } from '../db/outbox/repository.js';
import { EventNotFound, EventWebhookNotFound, InvalidRedeliveryRange, RedeliveriesLimited } from './errors.js';
import type { DeliveryState, EventDeliveries, EventWebhooks, PartnerEvent } from './model.js';
import { eventsBetween, feedPage, findScopedEvent, type EventScope } from './repository-feed.js';

/**
 * The partner's event log (docs/api-contract.md, "Events"): the pull feed in publication order,
 * one event with its deliveries, and redelivery. Every read is scoped to the caller's partner and
 * brand; another partner's event is not found.
 */
export interface EventLogDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly webhooks?: EventWebhooks;
  /** Deliveries one partner may have queued again by redeliveries in a UTC hour. */
  readonly redeliveriesPerHour: number;
}

export const FEED_LIMIT_DEFAULT = 100;
export const FEED_LIMIT_MAX = 1000;
/**
 * A bulk redelivery covers at most this many events and queues at most this many deliveries: a
 * wider range is refused, not cut short. Each delivery is a POST to a URL the partner chose.
 */
export const REDELIVERY_MAX_EVENTS = 1000;
export const REDELIVERY_MAX_DELIVERIES = 1000;

export interface FeedPage {
  readonly events: PartnerEvent[];
  readonly hasMore: boolean;
}

/** The published events after `after` (an event of the feed), oldest first. */
export async function listEvents(
  deps: EventLogDeps,
  scope: EventScope,
  page: { after?: string; limit?: number },
): Promise<FeedPage> {
  const limit = Math.min(page.limit ?? FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX);
  let afterPosition = 0;
  if (page.after !== undefined) {
    const cursor = await findScopedEvent(deps.db, scope, page.after);
    // Only a published event is a place in the feed.
    if (cursor?.feedPosition === undefined) throw new EventNotFound(page.after, 'after');
    afterPosition = cursor.feedPosition;
  }
  const events = await feedPage(deps.db, scope, { afterPosition, limit: limit + 1 });
  return { events: events.slice(0, limit), hasMore: events.length > limit };
}

export interface EventWithDeliveries {
  readonly event: PartnerEvent;
  readonly deliveries: readonly EventDeliveries[];
}

export async function getEvent(deps: EventLogDeps, scope: EventScope, eventId: string): Promise<EventWithDeliveries> {
  const event = await findScopedEvent(deps.db, scope, eventId);
  if (!event) throw new EventNotFound(eventId);
  return { event, deliveries: (await deps.webhooks?.deliveriesOf(deps.db, eventId)) ?? [] };
}

/** Which of an event's deliveries a redelivery repeats. */
interface Targets {
  readonly webhookId?: string;
  readonly failedOnly?: boolean;
}

/**
 * The endpoints an event's redelivery queues again (from their first attempt, under their own
 * keys, so the same `webhook-id`; a FAILED or SENT delivery is made PENDING): with `failedOnly`
 * its FAILED deliveries only; otherwise every delivery it has, and a first one to each endpoint of
 * `live` (those that missed it: disabled then, registered or subscribed later). Restricted to
 * `webhookId` when given.
 */
function redeliveryTargets(
  targets: Targets & { readonly states: ReadonlyMap<string, DeliveryState> | undefined },
  live: readonly string[],
): string[] {
  const failedOnly = targets.failedOnly === true;
  const existing = [...(targets.states ?? new Map<string, DeliveryState>())]
    .filter(([, state]) => !failedOnly || state === 'FAILED')
    .map(([webhookId]) => webhookId);
  return [...new Set(failedOnly ? existing : [...existing, ...live])].filter(
    (id) => targets.webhookId === undefined || id === targets.webhookId,
  );
}

/**
 * Queues the deliveries of a redelivery, paid from the partner's budget of the UTC hour: the
 * budget and the deliveries are one transaction, so a refused request (429) queues nothing and
 * parallel requests never pass the budget. Answers how many.
 */
async function queueRedeliveries(
  deps: EventLogDeps,
  scope: EventScope,
  messages: readonly NewOutboxMessage[],
  at: string,
): Promise<number> {
  if (messages.length === 0) return 0;
  const limit = deps.redeliveriesPerHour;
  const budget = { scope: `redeliveries:partner:${String(scope.partnerId)}`, window: 'hour', limit } as const;
  await deps.db.transaction().execute(async (tx) => {
    await purgeSendBudgets(tx, at);
    if (!(await takeSendBudget(tx, budget, messages.length, at)))
      throw new RedeliveriesLimited(limit, secondsLeftIn('hour', at));
    await redeliverAll(tx, messages);
  });
  return messages.length;
}

/**
 * The endpoints a published event would be fanned out to now (an unpublished one: none, its
 * publication fans it out).
 */
async function liveTargets(
  deps: EventLogDeps,
  webhooks: EventWebhooks,
  event: PartnerEvent,
): Promise<readonly string[]> {
  return event.feedPosition === undefined ? [] : webhooks.liveEndpointsFor(deps.db, event);
}

/**
 * One event's redelivery. Without `webhookId`: every delivery it has plus every enabled endpoint
 * of the scope subscribed to its type that has none. With `webhookId`: that endpoint, which must
 * be a live endpoint of the scope (404 `WEBHOOK_NOT_FOUND`) and enabled (409 `WEBHOOK_DISABLED`),
 * queued whether or not it had a delivery and whatever its event types (asked explicitly); a
 * `webhook.test` event goes only to its own endpoint (another: 404 `WEBHOOK_NOT_FOUND`).
 */
export async function redeliverEvent(
  deps: EventLogDeps,
  scope: EventScope,
  eventId: string,
  webhookId?: string,
): Promise<number> {
  const event = await findScopedEvent(deps.db, scope, eventId);
  if (!event) throw new EventNotFound(eventId);
  const { webhooks } = deps;
  if (!webhooks) {
    if (webhookId !== undefined) throw new EventWebhookNotFound(webhookId);
    return 0;
  }
  const at = deps.clock().toISOString();
  let endpoints: readonly string[];
  if (webhookId === undefined) {
    const states = (await webhooks.deliveryStatesOf(deps.db, scope, [event.id])).get(event.id);
    endpoints = redeliveryTargets({ states }, await liveTargets(deps, webhooks, event));
  } else {
    await webhooks.assertLiveEndpoint(deps.db, scope, webhookId);
    if (event.type === 'webhook.test' && event.endpointId !== webhookId) throw new EventWebhookNotFound(webhookId);
    endpoints = [webhookId];
  }
  const messages = endpoints.map((id) => webhooks.deliveryMessage(event, id, at));
  return queueRedeliveries(deps, scope, messages, at);
}

export interface RedeliveryRange extends Targets {
  /** Events that happened at or after (ISO 8601). */
  readonly from: string;
  /** … and before. */
  readonly to: string;
}

/**
 * The bulk redelivery: every published event of the scope in [from, to). With `failedOnly` its
 * FAILED deliveries only; otherwise what one event's redelivery without `webhookId` queues (its
 * deliveries, and each enabled endpoint subscribed to its type). `webhookId` restricts both to that
 * endpoint, which must be live and enabled (404 / 409, as for one event) but, unlike one event's
 * redelivery, gets only the types it subscribes to.
 */
export async function redeliverRange(deps: EventLogDeps, scope: EventScope, range: RedeliveryRange): Promise<number> {
  const from = new Date(range.from);
  const to = new Date(range.to);
  if (!(from.getTime() < to.getTime()))
    throw new InvalidRedeliveryRange('INVALID_TIME_RANGE', '`to` must be a later instant than `from`.');
  const events = await eventsBetween(deps.db, scope, {
    from: from.toISOString(),
    to: to.toISOString(),
    limit: REDELIVERY_MAX_EVENTS + 1,
  });
  if (events.length > REDELIVERY_MAX_EVENTS)
    throw new InvalidRedeliveryRange(
      'REDELIVERY_RANGE_TOO_LARGE',
      `The range holds more than ${String(REDELIVERY_MAX_EVENTS)} events: redeliver a shorter one at a time.`,
    );
  const { webhooks } = deps;
  if (!webhooks) return 0;
  if (range.webhookId !== undefined) await webhooks.assertLiveEndpoint(deps.db, scope, range.webhookId);
  const at = deps.clock().toISOString();
  // The scope's endpoints do not change within the range: one look-up per event type (per test endpoint).
  const liveByKind = new Map<string, readonly string[]>();
  const states = await webhooks.deliveryStatesOf(
    deps.db,
    scope,
    events.map((event) => event.id),
  );
  const messages: NewOutboxMessage[] = [];
  for (const event of events) {
    let live: readonly string[] = [];
    if (range.failedOnly !== true) {
      const kind = event.type === 'webhook.test' ? `${event.type}:${event.endpointId ?? ''}` : event.type;
      live = liveByKind.get(kind) ?? (await webhooks.liveEndpointsFor(deps.db, event));
      liveByKind.set(kind, live);
    }
    for (const id of redeliveryTargets({ ...range, states: states.get(event.id) }, live))
      messages.push(webhooks.deliveryMessage(event, id, at));
  }
  if (messages.length > REDELIVERY_MAX_DELIVERIES)
    throw new InvalidRedeliveryRange(
      'REDELIVERY_RANGE_TOO_LARGE',
      `The range would queue more than ${String(REDELIVERY_MAX_DELIVERIES)} deliveries: redeliver a shorter one at a time, or to one webhookId.`,
    );
  return queueRedeliveries(deps, scope, messages, at);
}
