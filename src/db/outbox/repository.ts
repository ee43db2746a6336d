import type { OnConflictBuilder, QueryCreator } from 'kysely';
import type { PlanStep } from '../commit-plan.js';
import type { After } from '../../kernel/keyset.js';
import type { Database, Executor } from '../database.js';
import { reusableInsert } from '../reusable-query.js';
import type { OutboxMessageRow } from './tables.js';

/** A message's state: PENDING (attempts to come), SENT, FAILED (retries exhausted). */
export const OUTBOX_STATES = ['PENDING', 'SENT', 'FAILED'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export interface OutboxMessage {
  id: number;
  key: string;
  kind: string;
  payload: unknown;
  /** Deliveries started, this one included when a handler receives it. */
  attempts: number;
  state: OutboxState;
  lastError?: string;
  createdAt: string;
  sentAt?: string;
}

export interface NewOutboxMessage {
  /** Stable and unique: enqueueing the same key again records nothing (and a resend keeps it). */
  key: string;
  kind: string;
  /** JSON-serialisable. */
  payload: unknown;
  /** The instant of the change that causes it: created, and due, then (unless `dueAt`). */
  at: string;
  /** Held back until then (a later step, `dueNowStep`, may make it due sooner); absent: `at`. */
  dueAt?: string;
  /** Whose share of the lanes its delivery uses (worker.ts `inFlightPerShare`); absent: the common share. */
  share?: string;
}

/** An outbox insert's values as bound parameters (names for `reusableQuery`, see OUTBOX_NAMES). */
export interface OutboxValues {
  outboxKey: string;
  outboxKind: string;
  outboxPayloadJson: string;
  outboxAt: string;
  outboxDueAt: string;
  outboxShareKey: string;
}
export const OUTBOX_NAMES = [
  'outboxKey',
  'outboxKind',
  'outboxPayloadJson',
  'outboxAt',
  'outboxDueAt',
  'outboxShareKey',
] as const;

export function outboxValues(message: NewOutboxMessage): OutboxValues {
  return {
    outboxKey: message.key,
    outboxKind: message.kind,
    outboxPayloadJson: JSON.stringify(message.payload),
    outboxAt: message.at,
    outboxDueAt: message.dueAt ?? message.at,
    outboxShareKey: message.share ?? '',
  };
}

/**
 * The insert of one message, ignored when its key exists, as a statement to compose: a CTE of a
 * PostgreSQL one-statement commit (`.with('outbox', (qc) => enqueueStatement(qc, message))`; an
 * unreferenced data-modifying CTE runs all the same). Every value is a bound parameter in `values`,
 * so it also compiles once under `reusableQuery` with `enqueueStatementOf(qc, v)` and OUTBOX_NAMES.
 */
export function enqueueStatement<DB extends Database>(qc: QueryCreator<DB>, message: NewOutboxMessage) {
  return enqueueStatementOf(qc, outboxValues(message));
}

/** The row of a message not yet tried, from its values. */
const pendingRow = (v: OutboxValues) => ({
  message_key: v.outboxKey,
  kind: v.outboxKind,
  payload_json: v.outboxPayloadJson,
  state: 'PENDING',
  attempts: 0,
  next_attempt_at: v.outboxDueAt,
  created_at: v.outboxAt,
  updated_at: v.outboxAt,
  share_key: v.outboxShareKey,
});

/** Typed against the outbox table only: any CTEs before it (Kysely adds them to `qc`'s type) are not its concern. */
export function enqueueStatementOf<DB extends Database>(qc: QueryCreator<DB>, v: OutboxValues) {
  return (qc as unknown as QueryCreator<Database>)
    .insertInto('outbox_message')
    .values(pendingRow(v))
    .onConflict((oc) => oc.column('message_key').doNothing());
}

/**
 * The step of a commit plan (db/commit-plan.ts) that records one message when the step `after`
 * answered a row (e.g. the policy header a purchase wrote, the event it recorded); a key already
 * recorded is left as it is.
 */
export function enqueueStep(
  name: string,
  after: string | undefined,
  message: NewOutboxMessage,
): PlanStep<OutboxValues> {
  return {
    name,
    ...(after === undefined ? {} : { after }),
    values: outboxValues(message),
    build: (_, { v, insert }) =>
      insert('outbox_message', pendingRow(v)).onConflict((oc: OnConflictBuilder<Database, 'outbox_message'>) =>
        oc.column('message_key').doNothing(),
      ),
  };
}

/**
 * The step of a commit plan that makes a held message (`dueAt` later) due at `at`, when the step
 * `after` answered a row (a purchase's capture releases its e-mail). A message due already, sent,
 * or never recorded is left as it is.
 */
export function dueNowStep(
  name: string,
  after: string,
  release: { readonly key: string; readonly at: string },
): PlanStep<{ outboxKey: string; outboxAt: string }> {
  return {
    name,
    after,
    values: { outboxKey: release.key, outboxAt: release.at },
    build: (qc, { v, gate }) =>
      qc
        .updateTable('outbox_message')
        .set({ next_attempt_at: v.outboxAt, updated_at: v.outboxAt })
        .where('message_key', '=', v.outboxKey)
        .where('state', '=', 'PENDING')
        .where('next_attempt_at', '>', v.outboxAt)
        .where(gate),
  };
}

/** Records a message in the caller's transaction (both engines); a key already recorded is left as it is. */
export async function enqueue(tx: Executor, message: NewOutboxMessage): Promise<void> {
  await enqueueStatement(tx, message).execute();
}

/**
 * FAILED messages, oldest first (by creation, then key), `limit` after `after` (operators:
 * `documents failed`, the console's deliveries queue); only the kinds given, if any.
 */
export async function failedMessages(
  db: Executor,
  limit: number,
  options: { readonly after?: After; readonly kinds?: readonly string[] } = {},
): Promise<OutboxMessage[]> {
  const { after, kinds } = options;
  let query = db.selectFrom('outbox_message').selectAll().where('state', '=', 'FAILED');
  if (kinds) query = query.where('kind', 'in', [...kinds]);
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '>', after.at),
        eb.and([eb('created_at', '=', after.at), eb('message_key', '>', after.id)]),
      ]),
    );
  const rows = await query.orderBy('created_at').orderBy('message_key').limit(limit).execute();
  return rows.map(messageOf);
}

/** How many messages are FAILED (by the state's index). */
export async function countFailedMessages(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('outbox_message')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('state', '=', 'FAILED')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Makes a message not yet sent due now with every attempt again (operators: `documents retry`).
 * False when no such key, or it was sent already, or not in one of `from` (the console retries
 * FAILED ones only, so a second operator's retry of the same message is refused). A live lease is
 * kept (its worker is sending it).
 */
export async function retryMessage(
  db: Executor,
  key: string,
  at: string,
  from: readonly OutboxState[] = ['PENDING', 'FAILED'],
): Promise<boolean> {
  const result = await db
    .updateTable('outbox_message')
    .set({ state: 'PENDING', attempts: 0, next_attempt_at: at, updated_at: at })
    .where('message_key', '=', key)
    .where(
      'state',
      'in',
      from.filter((state) => state !== 'SENT'),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The states of the messages with these keys (absent keys are not in the map); by the unique key's index. */
export async function messageStates(db: Executor, keys: readonly string[]): Promise<Map<string, OutboxState>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('outbox_message')
    .select(['message_key', 'state'])
    .where('message_key', 'in', [...keys])
    .orderBy('id')
    .execute();
  return new Map(rows.map((row) => [row.message_key, row.state as OutboxState]));
}

/** The messages with these keys, oldest first (absent keys are left out); by the unique key's index. */
export async function messagesByKeys(db: Executor, keys: readonly string[]): Promise<OutboxMessage[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('outbox_message')
    .selectAll()
    .where('message_key', 'in', [...keys])
    .orderBy('id')
    .execute();
  return rows.map(messageOf);
}

/** One message by key (tests and operators). */
export async function findMessage(db: Executor, key: string): Promise<OutboxMessage | undefined> {
  const row = await db.selectFrom('outbox_message').selectAll().where('message_key', '=', key).executeTakeFirst();
  return row ? messageOf(row) : undefined;
}

export function messageOf(row: OutboxMessageRow): OutboxMessage {
  return {
    id: row.id,
    key: row.message_key,
    kind: row.kind,
    payload: JSON.parse(row.payload_json) as unknown,
    attempts: row.attempts,
    state: row.state as OutboxState,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    createdAt: row.created_at,
    ...(row.sent_at === null ? {} : { sentAt: row.sent_at }),
  };
}

/** Rows per insert of `enqueueAll` (each of its row counts is compiled once: a few sizes only). */
const ENQUEUE_ROWS = 64;

const enqueueRows = reusableInsert([...OUTBOX_NAMES], (db, rows: OutboxValues[]) =>
  db
    .insertInto('outbox_message')
    .values(rows.map(pendingRow))
    .onConflict((oc) => oc.column('message_key').doNothing()),
);

/** `enqueue` for many messages: multi-row inserts (a key already recorded is left as it is). */
export async function enqueueAll(tx: Executor, messages: readonly NewOutboxMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += ENQUEUE_ROWS)
    await enqueueRows(tx, messages.slice(i, i + ENQUEUE_ROWS).map(outboxValues));
}

const redeliverRows = reusableInsert([...OUTBOX_NAMES], (db, rows: OutboxValues[]) =>
  db
    .insertInto('outbox_message')
    .values(rows.map(pendingRow))
    .onConflict((oc) =>
      oc.column('message_key').doUpdateSet((eb) => ({
        state: 'PENDING',
        attempts: 0,
        next_attempt_at: eb.ref('excluded.next_attempt_at'),
        updated_at: eb.ref('excluded.updated_at'),
        share_key: eb.ref('excluded.share_key'),
        sent_at: null,
        last_error: null,
      })),
    ),
);

/**
 * Delivers messages again from their first attempt (a partner's redelivery): each recorded if
 * new, else made PENDING and due at its `at` whatever its state, SENT and FAILED included; in
 * multi-row upserts of ENQUEUE_ROWS (keys must be distinct). Same key, so a redelivered webhook
 * keeps its `webhook-id`. A live lease is kept (its worker is sending it).
 */
export async function redeliverAll(tx: Executor, messages: readonly NewOutboxMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += ENQUEUE_ROWS)
    await redeliverRows(tx, messages.slice(i, i + ENQUEUE_ROWS).map(outboxValues));
}

/** `redeliverAll` of one message. */
export async function redeliver(db: Executor, message: NewOutboxMessage): Promise<void> {
  await redeliverAll(db, [message]);
}
