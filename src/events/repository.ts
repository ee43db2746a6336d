import { sql, type Insertable, type OnConflictBuilder, type SqlBool } from 'kysely';
import { runPlan, type PlanStep, type StepColumn, type StepInput } from '../db/commit-plan.js';
import type { Database, Executor, Tx } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import { enqueueStep } from '../db/outbox/repository.js';
import { newOrderedToken } from '../kernel/ids/ordered-ids.js';
import type { EventType, NewPartnerEvent, PartnerEvent, PolicyReferences } from './model.js';
import type { PartnerEventRow, PartnerEventTable } from './tables.js';

type NewPartnerEventRow = Omit<Insertable<PartnerEventTable>, 'id'>;

/** The outbox kind that publishes a recorded event (publish.ts): feed position, then one delivery per subscriber. */
export const PUBLISH_EVENT = 'partner-event';

/** A new public event id: `evt_` + 128 bits ordered by time (kernel/ids/ordered-ids.ts). */
export function newEventId(): string {
  return `evt_${newOrderedToken()}`;
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

/** A policy event's `data` as stored: its number and sequence live in their own columns (`eventOf` adds them back). */
function storedData(data: Readonly<Record<string, unknown>>, numbered: boolean): string {
  if (!numbered) return JSON.stringify(data);
  const { policyNumber: _number, policyEventSequence: _sequence, ...rest } = data;
  return JSON.stringify(rest);
}

/**
 * The steps of a commit plan (db/commit-plan.ts) that record an event with the change it reports,
 * when the step `after` answered a row: the policy's next sequence (its counter's row lock held to
 * the commit: sequence order = commit order; not taken for a cause recorded already, which would
 * leave a gap), the row, and the outbox message that publishes it. `policyNumber` is read from an
 * earlier step when that step takes it (the issuing commit's header). The step named `name`
 * answers the new `event_id`; none when the cause was recorded already. Any number of events
 * per plan, each under its own name.
 */
export function recordEventSteps(
  name: string,
  after: string | undefined,
  event: NewPartnerEvent,
  policyNumber: string | StepColumn | undefined = event.policyNumber,
): PlanStep[] {
  const eventId = newEventId();
  const sequence = `${name}_sequence`;
  const numbered = policyNumber !== undefined;
  const numberOf = (ref: StepInput<object>['ref']) =>
    typeof policyNumber === 'object' ? ref<string>(policyNumber.step, policyNumber.column) : undefined;
  const sequenceStep: PlanStep<{ number: string; sourceKey: string }> = {
    name: sequence,
    ...(after === undefined ? {} : { after }),
    shape: typeof policyNumber,
    values: { number: typeof policyNumber === 'string' ? policyNumber : '', sourceKey: event.sourceKey },
    build: (_, { v, ref, insert }) =>
      insert(
        'event_counter',
        { name: sql`${'policy:'} || ${numberOf(ref) ?? v.number}`, last_value: 1 },
        sql<SqlBool>`not exists (select 1 from partner_event where source_key = ${v.sourceKey})`,
      )
        .onConflict((oc: OnConflictBuilder<Database, 'event_counter'>) =>
          oc.column('name').doUpdateSet((eb) => ({ last_value: eb('event_counter.last_value', '+', 1) })),
        )
        .returning('last_value'),
  };
  const rowStep: PlanStep<NewPartnerEventRow> = {
    name,
    ...(numbered ? { after: sequence } : after === undefined ? {} : { after }),
    shape: typeof policyNumber,
    values: {
      event_id: eventId,
      source_key: event.sourceKey,
      partner_id: event.partnerId,
      brand_code: event.brandCode,
      type: event.type,
      policy_number: typeof policyNumber === 'string' ? policyNumber : null,
      policy_sequence: null,
      occurred_at: event.at,
      data_json: storedData(event.data, numbered),
      endpoint_public_id: event.endpointId ?? null,
      feed_position: null,
      published_at: null,
    },
    build: (_, { v, ref, insert }) =>
      insert('partner_event', {
        ...v,
        ...(numbered
          ? { policy_number: numberOf(ref) ?? v.policy_number, policy_sequence: ref(sequence, 'last_value') }
          : {}),
      })
        .onConflict((oc: OnConflictBuilder<Database, 'partner_event'>) => oc.column('source_key').doNothing())
        .returning('event_id'),
  };
  const publish = { key: `${PUBLISH_EVENT}:${eventId}`, kind: PUBLISH_EVENT, payload: { eventId }, at: event.at };
  return [...(numbered ? [sequenceStep] : []), rowStep, enqueueStep(`${name}_outbox`, name, publish)];
}

/**
 * Records an event in the caller's transaction (the change it reports): its policy sequence, the
 * row, and the outbox message that publishes it. Undefined when its cause was recorded already.
 */
export async function recordEvent(tx: Tx, event: NewPartnerEvent): Promise<string | undefined> {
  const { rows } = await runPlan(tx, {
    name: 'record-event',
    steps: recordEventSteps('event', undefined, event),
    answer: { event: ['event_id'] },
  });
  return rows.event?.event_id as string | undefined;
}

/** One event by its public id (any partner: callers check ownership). */
export async function findEvent(db: Executor, eventId: string): Promise<PartnerEvent | undefined> {
  const row = await db.selectFrom('partner_event').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  return row ? eventOf(row) : undefined;
}

/** Every event of a policy, in the order its changes committed (by the unique policy and sequence). */
export async function eventsOfPolicy(db: Executor, policyNumber: string): Promise<PartnerEvent[]> {
  const rows = await db
    .selectFrom('partner_event')
    .selectAll()
    .where('policy_number', '=', policyNumber)
    .orderBy('policy_sequence')
    .execute();
  return rows.map(eventOf);
}

/** Events by their public ids in one statement (any partner: callers check ownership); missing ids are not in the map. */
export async function findEvents(db: Executor, eventIds: readonly string[]): Promise<Map<string, PartnerEvent>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('partner_event')
    .selectAll()
    .where('event_id', 'in', [...new Set(eventIds)])
    .execute();
  return new Map(rows.map((row) => [row.event_id, eventOf(row)]));
}

/**
 * The event's `data` with its policy's number first and its sequence last, from their columns
 * (rows recorded before they were kept there only have them in `data_json` already: same values).
 */
function dataOf(row: PartnerEventRow): Record<string, unknown> {
  const data = JSON.parse(row.data_json) as Record<string, unknown>;
  if (row.policy_number === null) return data;
  return {
    policyNumber: row.policy_number,
    ...data,
    ...(row.policy_sequence === null ? {} : { policyEventSequence: row.policy_sequence }),
  };
}

export function eventOf(row: PartnerEventRow): PartnerEvent {
  return {
    id: row.event_id,
    type: row.type as EventType,
    timestamp: row.occurred_at,
    data: dataOf(row),
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
