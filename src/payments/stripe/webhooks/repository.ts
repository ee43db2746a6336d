import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { Dispute, EventFacts, ObjectFacts, StripeEvent, StripeEventState } from './model.js';
import type { StripeEventTable } from './tables.js';

/** Every statement over `stripe_event` and `stripe_dispute`; rows stay here. */

type StripeEventRow = Selectable<StripeEventTable>;

const toEvent = (row: StripeEventRow): StripeEvent => ({
  eventId: row.event_id,
  type: row.type,
  livemode: row.livemode === 1,
  createdAt: row.stripe_created_at,
  object: JSON.parse(row.facts_json) as ObjectFacts,
  state: row.state as StripeEventState,
  ...(row.outcome !== null ? { outcome: row.outcome } : {}),
  ...(row.last_error !== null ? { lastError: row.last_error } : {}),
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  receivedAt: row.received_at,
  updatedAt: row.updated_at,
});

/**
 * Records an event as RECEIVED, held by the receiving process until `holdUntil` (then the sweep
 * may apply it); false when Stripe's event id is recorded already (a redelivery).
 */
export async function recordEvent(db: Executor, facts: EventFacts, at: string, holdUntil: string): Promise<boolean> {
  const row = await db
    .insertInto('stripe_event')
    .values({
      event_id: facts.eventId,
      type: facts.type,
      livemode: facts.livemode ? 1 : 0,
      facts_json: JSON.stringify(facts.object),
      state: 'RECEIVED',
      outcome: null,
      attempts: 1,
      next_attempt_at: holdUntil,
      last_error: null,
      stripe_created_at: facts.createdAt,
      received_at: at,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.column('event_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findEvent(db: Executor, eventId: string): Promise<StripeEvent | undefined> {
  const row = await db.selectFrom('stripe_event').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  return row && toEvent(row);
}

/** RECEIVED events due by `now` (their hold ran out), oldest due first: the sweep's work list. */
export async function dueEvents(db: Executor, now: string, limit = 100): Promise<StripeEvent[]> {
  const rows = await db
    .selectFrom('stripe_event')
    .selectAll()
    .where('state', '=', 'RECEIVED')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  return rows.map(toEvent);
}

/**
 * Takes a due event for one process until `holdUntil`: a compare and set on its due time, so of
 * several sweeping processes one applies it; false when another took it (or it is done).
 */
export async function holdEvent(db: Executor, event: StripeEvent, at: string, holdUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('stripe_event')
    .set({ next_attempt_at: holdUntil, attempts: sql<number>`attempts + 1`, updated_at: at })
    .where('event_id', '=', event.eventId)
    .where('state', '=', 'RECEIVED')
    .where('next_attempt_at', '=', event.nextAttemptAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The event applied (or nothing to do): DONE with what it did. */
export async function finishEvent(db: Executor, eventId: string, outcome: string, at: string): Promise<void> {
  await db
    .updateTable('stripe_event')
    .set({ state: 'DONE', outcome, last_error: null, next_attempt_at: at, updated_at: at })
    .where('event_id', '=', eventId)
    .where('state', '=', 'RECEIVED')
    .execute();
}

/** Applied again at `until`: it waits for our own step, or its application failed (`error`, a name). */
export async function postponeEvent(
  db: Executor,
  eventId: string,
  change: { readonly until: string; readonly outcome?: string; readonly error?: string },
  at: string,
): Promise<void> {
  await db
    .updateTable('stripe_event')
    .set({
      next_attempt_at: change.until,
      ...(change.outcome !== undefined ? { outcome: change.outcome } : {}),
      last_error: change.error ?? null,
      updated_at: at,
    })
    .where('event_id', '=', eventId)
    .where('state', '=', 'RECEIVED')
    .execute();
}

/** Records a dispute, or its newer status (`at` is Stripe's time of the event; a late or redelivered one changes nothing). */
export async function recordDispute(db: Executor, dispute: Dispute): Promise<void> {
  await db
    .insertInto('stripe_dispute')
    .values({
      dispute_id: dispute.disputeId,
      payment_id: dispute.paymentId,
      policy_number: dispute.policyNumber ?? null,
      amount_minor: dispute.amountMinor,
      currency: dispute.currency,
      reason: dispute.reason,
      status: dispute.status,
      opened_at: dispute.at,
      closed_at: dispute.closed ? dispute.at : null,
      updated_at: dispute.at,
    })
    .onConflict((conflict) =>
      conflict
        .column('dispute_id')
        .doUpdateSet({
          status: dispute.status,
          ...(dispute.closed ? { closed_at: dispute.at } : {}),
          updated_at: dispute.at,
        })
        // Stripe does not promise order: an older event never overwrites a newer one's status.
        .where('stripe_dispute.updated_at', '<=', dispute.at),
    )
    .execute();
}

/** The disputes recorded against a payment (operators' view, tests). */
export async function disputesOf(db: Executor, paymentId: string): Promise<Dispute[]> {
  const rows = await db
    .selectFrom('stripe_dispute')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    disputeId: row.dispute_id,
    paymentId: row.payment_id,
    ...(row.policy_number !== null ? { policyNumber: row.policy_number } : {}),
    amountMinor: row.amount_minor,
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    at: row.updated_at,
    closed: row.closed_at !== null,
  }));
}
