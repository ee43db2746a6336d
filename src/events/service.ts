import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { redeliver } from '../outbox/repository.js';
import { EventNotFound, EventWebhookNotFound, InvalidRedeliveryRange } from './errors.js';
import type { EventDeliveries, EventWebhooks, PartnerEvent } from './model.js';
import { eventIdsBetween, feedPage, findScopedEvent, type EventScope } from './repository-feed.js';

/**
 * The partner's event log (docs/api-contract.md, "Events"): the pull feed in publication order,
 * one event with its deliveries, and redelivery. Every read is scoped to the caller's partner and
 * brand; another partner's event is not found.
 */
export interface EventLogDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly webhooks?: EventWebhooks;
}

export const FEED_LIMIT_DEFAULT = 100;
export const FEED_LIMIT_MAX = 1000;
/** A bulk redelivery covers at most this many events: a wider range is refused, not cut short. */
export const REDELIVERY_MAX_EVENTS = 10_000;

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
 * Queues the event's deliveries again from their first attempt, due now, under their own keys (so
 * the same `webhook-id`): a FAILED or SENT delivery is made PENDING. Answers how many.
 */
async function redeliverOne(deps: EventLogDeps, eventId: string, targets: Targets, at: string): Promise<number> {
  const { webhooks } = deps;
  if (!webhooks) return 0;
  const deliveries = (await webhooks.deliveriesOf(deps.db, eventId)).filter(
    (d) =>
      (targets.webhookId === undefined || d.webhookId === targets.webhookId) &&
      (targets.failedOnly !== true || d.state === 'FAILED'),
  );
  for (const delivery of deliveries)
    await redeliver(deps.db, webhooks.deliveryMessage(eventId, delivery.webhookId, at));
  return deliveries.length;
}

/** One event's redelivery (all its endpoints, or `webhookId` only: 404 when it has no delivery there). */
export async function redeliverEvent(
  deps: EventLogDeps,
  scope: EventScope,
  eventId: string,
  webhookId?: string,
): Promise<number> {
  const event = await findScopedEvent(deps.db, scope, eventId);
  if (!event) throw new EventNotFound(eventId);
  const count = await redeliverOne(
    deps,
    eventId,
    webhookId === undefined ? {} : { webhookId },
    deps.clock().toISOString(),
  );
  if (webhookId !== undefined && count === 0) throw new EventWebhookNotFound(webhookId);
  return count;
}

export interface RedeliveryRange extends Targets {
  /** Events that happened at or after (ISO 8601). */
  readonly from: string;
  /** … and before. */
  readonly to: string;
}

/** The bulk redelivery: every published event of the scope in [from, to), optionally failed deliveries only. */
export async function redeliverRange(deps: EventLogDeps, scope: EventScope, range: RedeliveryRange): Promise<number> {
  const from = new Date(range.from);
  const to = new Date(range.to);
  if (!(from.getTime() < to.getTime()))
    throw new InvalidRedeliveryRange('INVALID_TIME_RANGE', '`to` must be a later instant than `from`.');
  const ids = await eventIdsBetween(deps.db, scope, {
    from: from.toISOString(),
    to: to.toISOString(),
    limit: REDELIVERY_MAX_EVENTS + 1,
  });
  if (ids.length > REDELIVERY_MAX_EVENTS)
    throw new InvalidRedeliveryRange(
      'REDELIVERY_RANGE_TOO_LARGE',
      `The range holds more than ${String(REDELIVERY_MAX_EVENTS)} events: redeliver a shorter one at a time.`,
    );
  const at = deps.clock().toISOString();
  let count = 0;
  for (const id of ids) count += await redeliverOne(deps, id, range, at);
  return count;
}
