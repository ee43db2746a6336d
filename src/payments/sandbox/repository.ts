import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { reusableQuery } from '../../db/reusable-query.js';
import type { SandboxOperationTable, SandboxPaymentTable } from '../tables.js';

export type SandboxPaymentRow = Selectable<SandboxPaymentTable>;
export type NewSandboxPaymentRow = Insertable<SandboxPaymentTable>;
export type SandboxPaymentPatch = Updateable<SandboxPaymentTable>;
export type SandboxOperationRow = Selectable<SandboxOperationTable>;

// The statements every payment runs, built and compiled once per engine (db/reusable-query.ts).
const selectOperation = reusableQuery(['key'], (db, v: { key: string }) => db.selectFrom('sandbox_operation').selectAll().where('idempotency_key', '=', v.key));

export async function findOperation(db: Executor, idempotencyKey: string): Promise<SandboxOperationRow | undefined> {
  return (await selectOperation(db, { key: idempotencyKey })).rows[0];
}

type NewOperationRow = Required<Omit<Insertable<SandboxOperationTable>, 'id'>>;
const OPERATION_COLUMNS = ['idempotency_key', 'operation', 'fingerprint', 'payment_id', 'outcome_json', 'created_at'] as const satisfies readonly (keyof NewOperationRow)[];
const insertOperationRow = reusableQuery(OPERATION_COLUMNS, (db, row: NewOperationRow) =>
  db.insertInto('sandbox_operation').values(row).onConflict((oc) => oc.column('idempotency_key').doNothing()),
);

/** Records a call's outcome; false when another call already holds the key (a concurrent replay). */
export async function insertOperation(db: Executor, row: NewOperationRow): Promise<boolean> {
  const result = await insertOperationRow(db, row);
  return Number(result.numAffectedRows ?? 0n) === 1;
}

type PaymentValues = Omit<SandboxPaymentRow, 'id'>;
const PAYMENT_COLUMNS = [
  'payment_id', 'reference', 'card_token', 'amount_minor', 'currency', 'status', 'three_ds_status', 'decline_reason', 'captured_minor',
  'refunded_minor', 'challenge_id', 'challenge_answer', 'challenge_expires_at', 'created_at', 'updated_at',
] as const satisfies readonly (keyof PaymentValues)[];
const insertPaymentRow = reusableQuery(PAYMENT_COLUMNS, (db, row: PaymentValues) => db.insertInto('sandbox_payment').values(row));

/** Every column of a new payment (none left to a default). */
export async function insertPayment(db: Executor, row: PaymentValues): Promise<void> {
  await insertPaymentRow(db, row);
}

const selectPayment = reusableQuery(['paymentId'], (db, v: { paymentId: string }) => db.selectFrom('sandbox_payment').selectAll().where('payment_id', '=', v.paymentId));

export async function findPayment(db: Executor, paymentId: string): Promise<SandboxPaymentRow | undefined> {
  return (await selectPayment(db, { paymentId })).rows[0];
}

/** What a capture needs of a payment, checked by the update itself. */
export interface CaptureCheck {
  readonly paymentId: string;
  readonly currency: string;
  readonly amountMinor: number;
  readonly at: string;
}

const captureIfAllowed = reusableQuery(['paymentId', 'currency', 'amountMinor', 'at'], (db, v: CaptureCheck) =>
  db
    .updateTable('sandbox_payment')
    .set((eb) => ({ captured_minor: eb('captured_minor', '+', v.amountMinor), updated_at: v.at }))
    .where('payment_id', '=', v.paymentId)
    .where('status', '=', 'authorised')
    .where('currency', '=', v.currency)
    .where((eb) => eb(eb('amount_minor', '-', eb.ref('captured_minor')), '>=', v.amountMinor)),
);

/**
 * Adds `amountMinor` to what is captured of an authorised payment in its currency with at least
 * that much left; false (nothing written) otherwise, and the caller reads the payment to say why.
 */
export async function captureAuthorised(db: Executor, check: CaptureCheck): Promise<boolean> {
  const result = await captureIfAllowed(db, check);
  return Number(result.numAffectedRows ?? 0n) === 1;
}

export async function findPaymentByChallenge(db: Executor, challengeId: string): Promise<SandboxPaymentRow | undefined> {
  return db.selectFrom('sandbox_payment').selectAll().where('challenge_id', '=', challengeId).executeTakeFirst();
}

export async function updatePayment(db: Executor, paymentId: string, patch: SandboxPaymentPatch): Promise<void> {
  await db.updateTable('sandbox_payment').set(patch).where('payment_id', '=', paymentId).execute();
}

/** Stores the cardholder's answer once: false when it was already answered or has expired. */
export async function answerChallenge(db: Executor, challengeId: string, answer: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('sandbox_payment')
    .set({ challenge_answer: answer, updated_at: now })
    .where('challenge_id', '=', challengeId)
    .where('challenge_answer', 'is', null)
    .where('status', '=', 'challenge')
    .where('challenge_expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
