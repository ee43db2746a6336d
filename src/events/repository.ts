import { randomBytes } from 'node:crypto';
import type { Executor, Tx } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import { enqueueStatementOf, OUTBOX_NAMES, outboxValues, type OutboxValues } from '../outbox/repository.js';
import type { EventType, NewPartnerEvent, PartnerEvent, PolicyReferences } from './model.js';
import type { PartnerEventRow, PartnerEventTable } from './tables.js';
import type { Insertable } from 'kysely';

type NewPartnerEventRow = Insertable<PartnerEventTable>;

/** The outbox kind that publishes a recorded event (publish.ts): feed position, then one delivery per subscriber. */
export const PUBLISH_EVENT = 'partner-event';

/** A new public event id: `evt_` + 128 random bits. */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('base64url')}`;
}

/**
 * Bumps a gapless counter and answers its new value. An upsert: on PostgreSQL it takes the row's
 * lock to the commit, so two transactions numbering the same policy (or feed) queue instead of
 * colliding; SQLite has one writer anyway.
 */
export async function nextCounterValue(tx: Tx, name: string): Promise<number> {
  const { rows } = await bumpCounter(tx, { name });
  return (rows[0] as { last_value: number }).last_value;
}

// Compiled once (db/reusable-query.ts): two events ride on every purchase's commits.
const bumpCounter = reusableQuery(['name'], (db, v: { name: string }) =>
  db
    .insertInto('event_counter')
    .values({ name: v.name, last_value: 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ last_value: eb('event_counter.last_value', '+', 1) })))
    .returning('last_value'),
);
const findCause = reusableQuery(['sourceKey'], (db, v: { sourceKey: string }) =>
  db.selectFrom('partner_event').select('event_id').where('source_key', '=', v.sourceKey),
);
type EventValues = Omit<NewPartnerEventRow, 'id'>;
/** The columns a recorded event is written with (also the PostgreSQL purchase statement's, statements.ts). */
export const RECORDED_EVENT_COLUMNS = [
  'event_id',
  'source_key',
  'partner_id',
  'brand_code',
  'type',
  'policy_number',
  'policy_sequence',
  'occurred_at',
  'data_json',
] as const satisfies readonly (keyof EventValues)[];
const EVENT_COLUMNS = [
  ...RECORDED_EVENT_COLUMNS,
  'endpoint_public_id',
  'feed_position',
  'published_at',
] as const satisfies readonly (keyof EventValues)[];
const insertEvent = reusableQuery([...EVENT_COLUMNS], (db, v: EventValues) => db.insertInto('partner_event').values(v));
const enqueuePublish = reusableQuery([...OUTBOX_NAMES], (db, v: OutboxValues) => enqueueStatementOf(db, v));

/**
 * Records an event in the caller's transaction (the change it reports): its policy sequence, the
 * row, and the outbox message that publishes it. Undefined when its cause was recorded already.
 */
export async function recordEvent(tx: Tx, event: NewPartnerEvent): Promise<string | undefined> {
  if ((await findCause(tx, { sourceKey: event.sourceKey })).rows.length > 0) return undefined;
  const policySequence =
    event.policyNumber === undefined ? undefined : await nextCounterValue(tx, `policy:${event.policyNumber}`);
  const eventId = newEventId();
  await insertEvent(tx, {
    event_id: eventId,
    source_key: event.sourceKey,
    partner_id: event.partnerId,
    brand_code: event.brandCode,
    type: event.type,
    policy_number: event.policyNumber ?? null,
    policy_sequence: policySequence ?? null,
    occurred_at: event.at,
    data_json: JSON.stringify(
      policySequence === undefined ? event.data : { ...event.data, policyEventSequence: policySequence },
    ),
    endpoint_public_id: event.endpointId ?? null,
    feed_position: null,
    published_at: null,
  });
  await enqueuePublish(
    tx,
    outboxValues({ key: `${PUBLISH_EVENT}:${eventId}`, kind: PUBLISH_EVENT, payload: { eventId }, at: event.at }),
  );
  return eventId;
}

/** One event by its public id (any partner: callers check ownership). */
export async function findEvent(db: Executor, eventId: string): Promise<PartnerEvent | undefined> {
  const row = await db.selectFrom('partner_event').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  return row ? eventOf(row) : undefined;
}

export function eventOf(row: PartnerEventRow): PartnerEvent {
  return {
    id: row.event_id,
    type: row.type as EventType,
    timestamp: row.occurred_at,
    data: JSON.parse(row.data_json) as Record<string, unknown>,
    partnerId: row.partner_id,
    brandCode: row.brand_code,
    ...(row.policy_number === null ? {} : { policyNumber: row.policy_number }),
    ...(row.policy_sequence === null ? {} : { policySequence: row.policy_sequence }),
    ...(row.endpoint_public_id === null ? {} : { endpointId: row.endpoint_public_id }),
    ...(row.feed_position === null ? {} : { feedPosition: row.feed_position }),
  };
}

/** The exact bytes every delivery signs and sends, and the feed shows: `{ id, type, timestamp, data }`. */
export function eventBody(event: PartnerEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });
}

/** The partner's identifiers of a policy as its latest event recorded them (its quote, its booking reference). */
export async function policyReferencesOf(db: Executor, policyNumber: string): Promise<PolicyReferences> {
  const row = await db
    .selectFrom('partner_event')
    .select('data_json')
    .where('policy_number', '=', policyNumber)
    .orderBy('policy_sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return {};
  const data = JSON.parse(row.data_json) as { quoteId?: unknown; externalIdentifiers?: { bookingReference?: unknown } };
  const booking = data.externalIdentifiers?.bookingReference;
  return {
    ...(typeof data.quoteId === 'string' ? { quoteId: data.quoteId } : {}),
    ...(typeof booking === 'string' ? { bookingReference: booking } : {}),
  };
}
