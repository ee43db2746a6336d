import { sql } from 'kysely';
import type { Executor, Tx } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import { dialectOf } from '../db/dialect.js';
import type { PartnerEvent } from './model.js';
import { eventOf } from './repository.js';

/** A partner's events under one brand: the scope of the feed, of every read and of redelivery. */
export interface EventScope {
  readonly partnerId: number;
  readonly brandCode: string;
}

/**
 * The events, their rows locked to the caller's commit on PostgreSQL (SQLite has one writer), in
 * row order so two publishers never wait on each other in a cycle: a second publisher of the same
 * event waits, then finds it published. Missing ids are not in the answer.
 */
export async function lockEvents(tx: Tx, eventIds: readonly string[]): Promise<PartnerEvent[]> {
  if (eventIds.length === 0) return [];
  const query = tx
    .selectFrom('partner_event')
    .selectAll()
    .where('event_id', 'in', [...eventIds])
    .orderBy('id');
  const rows = await (dialectOf(tx) === 'postgres' ? query.forUpdate() : query).execute();
  return rows.map(eventOf);
}

/**
 * Gives the events the next positions of their partners' feeds, in the order given: per feed
 * (`feed:<partnerId>:<brand>`) one bump of its counter by its number of events, whose row lock is
 * held to the commit: positions are taken in commit order, gapless, so a reader paging with
 * `after` never skips one committed later under a smaller position. Feeds in name order (no
 * deadlock between publishers); one update writes every position.
 */
export async function publishEvents(tx: Tx, events: readonly PartnerEvent[], at: string): Promise<PartnerEvent[]> {
  if (events.length === 0) return [];
  const byFeed = new Map<string, PartnerEvent[]>();
  for (const event of events) {
    const feed = `feed:${String(event.partnerId)}:${event.brandCode}`;
    byFeed.set(feed, [...(byFeed.get(feed) ?? []), event]);
  }
  const positions = new Map<string, number>();
  for (const feed of [...byFeed.keys()].sort()) {
    const ofFeed = byFeed.get(feed) as PartnerEvent[];
    const { rows } = await bumpCounterBy(tx, { name: feed, by: ofFeed.length });
    const last = Number((rows[0] as { last_value: number | string }).last_value);
    ofFeed.forEach((event, i) => positions.set(event.id, last - ofFeed.length + 1 + i));
  }
  // Positions are numbers computed here: literals, so the CASE needs no parameter type.
  const cases = events.map((e) => sql`when ${e.id} then ${sql.lit(positions.get(e.id) as number)}`);
  await tx
    .updateTable('partner_event')
    .set({ feed_position: sql<number>`case event_id ${sql.join(cases, sql` `)} end`, published_at: at })
    .where(
      'event_id',
      'in',
      events.map((e) => e.id),
    )
    .execute();
  return events.map((event) => ({ ...event, feedPosition: positions.get(event.id) as number }));
}

// Compiled once (db/reusable-query.ts), as events/repository.ts `nextCounterValue`, by `by` at once.
const bumpCounterBy = reusableQuery(['name', 'by'], (db, v: { name: string; by: number }) =>
  db
    .insertInto('event_counter')
    .values({ name: v.name, last_value: v.by })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({ last_value: eb('event_counter.last_value', '+', eb.ref('excluded.last_value')) })),
    )
    .returning('last_value'),
);

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
