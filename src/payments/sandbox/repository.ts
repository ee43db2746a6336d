import { type Insertable, type QueryCreator, type Selectable, type Updateable } from 'kysely';
import type { Database, Db, Executor } from '../../db/database.js';
import { runPlan, type PlanStep } from '../../db/commit-plan.js';
import { isUniqueViolationOf } from '../../db/refused-values.js';
import { reusableQuery } from '../../db/reusable-query.js';
import type { SandboxOperationTable, SandboxPaymentTable } from '../tables.js';

export type SandboxPaymentRow = Selectable<SandboxPaymentTable>;
export type NewSandboxPaymentRow = Insertable<SandboxPaymentTable>;
export type SandboxPaymentPatch = Updateable<SandboxPaymentTable>;
export type SandboxOperationRow = Selectable<SandboxOperationTable>;

// The statements every payment runs, built and compiled once per engine (db/reusable-query.ts).
const selectOperation = reusableQuery(['key'], (db, v: { key: string }) =>
  db.selectFrom('sandbox_operation').selectAll().where('idempotency_key', '=', v.key),
);

export async function findOperation(db: Executor, idempotencyKey: string): Promise<SandboxOperationRow | undefined> {
  return (await selectOperation(db, { key: idempotencyKey })).rows[0];
}

export type NewOperationRow = Required<Omit<Insertable<SandboxOperationTable>, 'id'>>;
const OPERATION_COLUMNS = [
  'idempotency_key',
  'operation',
  'fingerprint',
  'payment_id',
  'outcome_json',
  'created_at',
] as const satisfies readonly (keyof NewOperationRow)[];
const insertOperationRow = reusableQuery(OPERATION_COLUMNS, (db, row: NewOperationRow) =>
  db
    .insertInto('sandbox_operation')
    .values(row)
    .onConflict((oc) => oc.column('idempotency_key').doNothing()),
);

/** Records a call's outcome; false when another call already holds the key (a concurrent replay). */
export async function insertOperation(db: Executor, row: NewOperationRow): Promise<boolean> {
  const result = await insertOperationRow(db, row);
  return Number(result.numAffectedRows ?? 0n) === 1;
}

export type PaymentValues = Omit<SandboxPaymentRow, 'id'>;
const PAYMENT_COLUMNS = [
  'payment_id',
  'reference',
  'card_token',
  'amount_minor',
  'currency',
  'status',
  'three_ds_status',
  'decline_reason',
  'captured_minor',
  'refunded_minor',
  'challenge_id',
  'challenge_answer',
  'challenge_expires_at',
  'merchant_name',
  'return_url',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof PaymentValues)[];
const insertPaymentRow = reusableQuery(PAYMENT_COLUMNS, (db, row: PaymentValues) =>
  db.insertInto('sandbox_payment').values(row),
);

/** Every column of a new payment (none left to a default). */
export async function insertPayment(db: Executor, row: PaymentValues): Promise<void> {
  await insertPaymentRow(db, row);
}

const selectPayment = reusableQuery(['paymentId'], (db, v: { paymentId: string }) =>
  db.selectFrom('sandbox_payment').selectAll().where('payment_id', '=', v.paymentId),
);

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

function captureUpdate(db: QueryCreator<Database>, v: CaptureCheck) {
  return db
    .updateTable('sandbox_payment')
    .set((eb) => ({ captured_minor: eb('captured_minor', '+', v.amountMinor), updated_at: v.at }))
    .where('payment_id', '=', v.paymentId)
    .where('status', '=', 'authorised')
    .where('currency', '=', v.currency)
    .where((eb) => eb(eb('amount_minor', '-', eb.ref('captured_minor')), '>=', v.amountMinor));
}
const captureIfAllowed = reusableQuery(['paymentId', 'currency', 'amountMinor', 'at'], captureUpdate);

/**
 * Adds `amountMinor` to what is captured of an authorised payment in its currency with at least
 * that much left; false (nothing written) otherwise, and the caller reads the payment to say why.
 */
export async function captureAuthorised(db: Executor, check: CaptureCheck): Promise<boolean> {
  const result = await captureIfAllowed(db, check);
  return Number(result.numAffectedRows ?? 0n) === 1;
}

export async function findPaymentByChallenge(
  db: Executor,
  challengeId: string,
): Promise<SandboxPaymentRow | undefined> {
  return db.selectFrom('sandbox_payment').selectAll().where('challenge_id', '=', challengeId).executeTakeFirst();
}

export async function updatePayment(db: Executor, paymentId: string, patch: SandboxPaymentPatch): Promise<void> {
  await db.updateTable('sandbox_payment').set(patch).where('payment_id', '=', paymentId).execute();
}

/** Stores the cardholder's answer once: false when it was already answered or has expired. */
export async function answerChallenge(
  db: Executor,
  challengeId: string,
  answer: string,
  now: string,
): Promise<boolean> {
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

/**
 * A call's effect written together with its record, as one unit: `done`; `key-held` when another
 * call holds the key already (nothing written: the caller replays it); `not-applied` when the
 * effect's conditions did not hold (nothing written).
 */
export type RecordedWrite = 'done' | 'key-held' | 'not-applied';

/** The effect of a call: it answers the payment's id, or no row when its conditions did not hold. */
type Effect<V extends object> = PlanStep<V> & { readonly name: 'effect' };

/**
 * The effect and the record of the call, one commit plan (db/commit-plan.ts): the record is
 * written only after the effect answered a row, and a key another call holds refuses the record's
 * row (its unique key), which undoes the effect with it.
 */
async function writeRecorded<V extends object>(
  db: Db,
  name: string,
  effect: Effect<V>,
  call: NewOperationRow,
): Promise<RecordedWrite> {
  const record: PlanStep<NewOperationRow> = {
    name: 'call',
    after: 'effect',
    values: call,
    build: (_, { v, insert }) => insert('sandbox_operation', { ...v }),
  };
  try {
    const { ended } = await runPlan(db, { name, steps: [effect, record] });
    return ended === undefined ? 'done' : 'not-applied';
  } catch (error) {
    if (isUniqueViolationOf(error, 'sandbox_operation')) return 'key-held';
    throw error;
  }
}

/** A new payment and the record of the call that made it (the call's payment id is the payment's). */
export function insertPaymentRecorded(db: Db, payment: PaymentValues, call: NewOperationRow): Promise<RecordedWrite> {
  return writeRecorded(
    db,
    'sandbox-authorise',
    {
      name: 'effect',
      values: payment,
      build: (_, { v, insert }) => insert('sandbox_payment', { ...v }).returning('payment_id'),
    },
    call,
  );
}

/** `captureAuthorised` and the record of the call, together; `not-applied` when the payment cannot be captured so. */
export function captureRecorded(db: Db, check: CaptureCheck, call: NewOperationRow): Promise<RecordedWrite> {
  return writeRecorded(
    db,
    'sandbox-capture',
    {
      name: 'effect',
      orElse: 'not-applied',
      values: check,
      build: (qc, { v }) => captureUpdate(qc, v).returning('payment_id'),
    },
    call,
  );
}
