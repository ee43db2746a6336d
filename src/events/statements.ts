import { sql, type QueryCreator } from 'kysely';
import type { Database } from '../db/database.js';
import { enqueueIfStatementOf, outboxValues, type OutboxValues } from '../outbox/repository.js';
import type { NewPartnerEvent } from './model.js';
import { newEventId, PUBLISH_EVENT, RECORDED_EVENT_COLUMNS as EVENT_COLUMNS } from './repository.js';

/**
 * PostgreSQL: `recordEvent` as CTEs of a one-statement commit (purchases/commits.ts), so the
 * event is written with the change it reports without a BEGIN/COMMIT round trip. Each CTE reads
 * the row of an earlier one: no row there (the change did not happen), nothing recorded. Every
 * value is a bound parameter named in EVENT_NAMES, so the statement compiles once under `reusableQuery`.
 */

/** An event's values as bound parameters. */
export interface EventValues {
  eventId: string;
  eventSourceKey: string;
  eventPartnerId: number;
  eventBrandCode: string;
  eventType: string;
  eventDataJson: string;
  eventAt: string;
  eventCounterName: string;
  eventPolicyNumber: string;
  eventOutboxKey: string;
  eventOutboxKind: string;
  eventOutboxPayloadJson: string;
}
export const EVENT_NAMES = [
  'eventId',
  'eventSourceKey',
  'eventPartnerId',
  'eventBrandCode',
  'eventType',
  'eventDataJson',
  'eventAt',
  'eventCounterName',
  'eventPolicyNumber',
  'eventOutboxKey',
  'eventOutboxKind',
  'eventOutboxPayloadJson',
] as const;

/** `withIssuedEvent` takes the policy's number from its `header`: these two are not bound there. */
export const ISSUED_EVENT_NAMES = EVENT_NAMES.filter(
  (name) => name !== 'eventCounterName' && name !== 'eventPolicyNumber',
);

/**
 * Stand-ins the statement replaces in the data's JSON text (keys keep the order recordEvent
 * gives them on SQLite): the number the issuing statement takes, the sequence the counter answers.
 */
export const NUMBER_IN_STATEMENT = '\u0000policyNumber';
const SEQUENCE_IN_STATEMENT = '\u0000policyEventSequence';
const NUMBER_TEXT = JSON.stringify(NUMBER_IN_STATEMENT);
const SEQUENCE_TEXT = `"policyEventSequence":${JSON.stringify(SEQUENCE_IN_STATEMENT)}`;

/** The event's values; `sequence` when known already (a new policy's first event is 1). */
export function eventValues(event: NewPartnerEvent, sequence?: number): EventValues {
  const eventId = newEventId();
  const outbox = outboxValues({
    key: `${PUBLISH_EVENT}:${eventId}`,
    kind: PUBLISH_EVENT,
    payload: { eventId },
    at: event.at,
  });
  return {
    eventId,
    eventSourceKey: event.sourceKey,
    eventPartnerId: event.partnerId,
    eventBrandCode: event.brandCode,
    eventType: event.type,
    eventDataJson: JSON.stringify({ ...event.data, policyEventSequence: sequence ?? SEQUENCE_IN_STATEMENT }),
    eventAt: event.at,
    eventCounterName: `policy:${event.policyNumber ?? ''}`,
    eventPolicyNumber: event.policyNumber ?? '',
    eventOutboxKey: outbox.outboxKey,
    eventOutboxKind: outbox.outboxKind,
    eventOutboxPayloadJson: outbox.outboxPayloadJson,
  };
}

const outboxOf = (v: EventValues): OutboxValues => ({
  outboxKey: v.eventOutboxKey,
  outboxKind: v.eventOutboxKind,
  outboxPayloadJson: v.eventOutboxPayloadJson,
  outboxAt: v.eventAt,
});

type Over<T> = QueryCreator<Database & T>;
const over = <T>(qc: unknown) => qc as Over<T>;

/**
 * `policy.issued` of the policy the CTE `header` wrote (its data built with NUMBER_IN_STATEMENT
 * as the number, and sequence 1): its sequence counter starts at 1, the number `header` took goes
 * into the row and into `data.policyNumber`, then the publishing message.
 */
export function withIssuedEvent<DB>(qc: QueryCreator<DB>, v: EventValues) {
  return over<{ header: { policy_number: string } }>(qc)
    .with('event_sequence', (q) =>
      q
        .insertInto('event_counter')
        .columns(['name', 'last_value'])
        .expression(sql`select 'policy:' || header.policy_number, 1 from header`),
    )
    .with('event_row', (q) =>
      q
        .insertInto('partner_event')
        .columns([...EVENT_COLUMNS])
        .expression(
          sql`select cast(${v.eventId} as text), cast(${v.eventSourceKey} as text), cast(${v.eventPartnerId} as bigint),
            cast(${v.eventBrandCode} as text), cast(${v.eventType} as text), header.policy_number, 1, cast(${v.eventAt} as text),
            replace(cast(${v.eventDataJson} as text), ${NUMBER_TEXT}, to_json(header.policy_number)::text)
            from header`,
        )
        .onConflict((oc) => oc.column('source_key').doNothing())
        .returning('event_id'),
    )
    .with('event_outbox', (q) =>
      enqueueIfStatementOf(over<{ event_row: { event_id: string } }>(q), 'event_row', outboxOf(v)),
    );
}

/**
 * A policy event (of `v.eventPolicyNumber`) recorded when the CTE `source` answered a row: the
 * policy's counter bumped (its row lock held to the commit: sequence order = commit order), the
 * row with that sequence in `data.policyEventSequence`, then the publishing message.
 */
export function withPolicyEventAfter<DB>(qc: QueryCreator<DB>, source: string, v: EventValues) {
  return over<object>(qc)
    .with('event_sequence', (q) =>
      q
        .insertInto('event_counter')
        .columns(['name', 'last_value'])
        // Not again for a cause already recorded: a sequence number without its event would be a gap.
        .expression(
          sql`select cast(${v.eventCounterName} as text), 1 from ${sql.table(source)}
            where not exists (select 1 from partner_event where source_key = cast(${v.eventSourceKey} as text))`,
        )
        .onConflict((oc) =>
          oc.column('name').doUpdateSet((eb) => ({ last_value: eb('event_counter.last_value', '+', 1) })),
        )
        .returning('last_value'),
    )
    .with('event_row', (q) =>
      over<{ event_sequence: { last_value: number } }>(q)
        .insertInto('partner_event')
        .columns([...EVENT_COLUMNS])
        .expression(
          sql`select cast(${v.eventId} as text), cast(${v.eventSourceKey} as text), cast(${v.eventPartnerId} as bigint),
            cast(${v.eventBrandCode} as text), cast(${v.eventType} as text), cast(${v.eventPolicyNumber} as text),
            event_sequence.last_value, cast(${v.eventAt} as text),
            replace(cast(${v.eventDataJson} as text), ${SEQUENCE_TEXT},
              ${'"policyEventSequence":'} || cast(event_sequence.last_value as text))
            from event_sequence`,
        )
        .onConflict((oc) => oc.column('source_key').doNothing())
        .returning('event_id'),
    )
    .with('event_outbox', (q) =>
      enqueueIfStatementOf(over<{ event_row: { event_id: string } }>(q), 'event_row', outboxOf(v)),
    );
}
