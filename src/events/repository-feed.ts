import type { Executor, Tx } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import type { PartnerEvent } from './model.js';
import { eventOf, nextCounterValue } from './repository.js';

/** A partner's events under one brand: the scope of the feed, of every read and of redelivery. */
export interface EventScope {
  readonly partnerId: number;
  readonly brandCode: string;
}

/**
 * The event, its row locked to the caller's commit on PostgreSQL (SQLite has one writer): a
 * second publisher of the same event waits, then finds it published.
 */
export async function lockEvent(tx: Tx, eventId: string): Promise<PartnerEvent | undefined> {
  const query = tx.selectFrom('partner_event').selectAll().where('event_id', '=', eventId);
  const row = await (dialectOf(tx) === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return row ? eventOf(row) : undefined;
}

/**
 * Gives the event the next position of its partner's feed (`feed:<partnerId>:<brand>`, a counter
 * whose row lock is held to the commit: positions are taken in commit order, so a reader paging
 * with `after` never skips one committed later under a smaller position).
 */
export async function publishEvent(tx: Tx, event: PartnerEvent, at: string): Promise<PartnerEvent> {
  const feedPosition = await nextCounterValue(tx, `feed:${String(event.partnerId)}:${event.brandCode}`);
  await tx
    .updateTable('partner_event')
    .set({ feed_position: feedPosition, published_at: at })
    .where('event_id', '=', event.id)
    .execute();
  return { ...event, feedPosition };
}

/** One event of the scope by id; undefined for another partner's or brand's (not told apart). */
export async function findScopedEvent(
  db: Executor,
  scope: EventScope,
  eventId: string,
): Promise<PartnerEvent | undefined> {
  const row = await db
    .selectFrom('partner_event')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .executeTakeFirst();
  return row ? eventOf(row) : undefined;
}

/** Published events of the scope after a feed position, in feed order: `limit` of them at most. */
export async function feedPage(
  db: Executor,
  scope: EventScope,
  page: { afterPosition: number; limit: number },
): Promise<PartnerEvent[]> {
  const rows = await published(db, scope)
    .where('feed_position', '>', page.afterPosition)
    .orderBy('feed_position')
    .limit(page.limit)
    .execute();
  return rows.map(eventOf);
}

/** The scope's published events that happened in [from, to), in feed order; `limit` at most. */
export async function eventsBetween(
  db: Executor,
  scope: EventScope,
  range: { from: string; to: string; limit: number },
): Promise<PartnerEvent[]> {
  const rows = await published(db, scope)
    .where('occurred_at', '>=', range.from)
    .where('occurred_at', '<', range.to)
    .orderBy('feed_position')
    .limit(range.limit)
    .execute();
  return rows.map(eventOf);
}

/** The scope's published events (in the feed), for a page or a range to narrow. */
function published(db: Executor, scope: EventScope) {
  return db
    .selectFrom('partner_event')
    .selectAll()
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .where('feed_position', 'is not', null);
}
