import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SandboxOperationTable, SandboxPaymentTable } from '../tables.js';

export type SandboxPaymentRow = Selectable<SandboxPaymentTable>;
export type NewSandboxPaymentRow = Insertable<SandboxPaymentTable>;
export type SandboxPaymentPatch = Updateable<SandboxPaymentTable>;
export type SandboxOperationRow = Selectable<SandboxOperationTable>;

export async function findOperation(db: Executor, idempotencyKey: string): Promise<SandboxOperationRow | undefined> {
  return db.selectFrom('sandbox_operation').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
}

/** Records a call's outcome; false when another call already holds the key (a concurrent replay). */
export async function insertOperation(db: Executor, row: Insertable<SandboxOperationTable>): Promise<boolean> {
  const result = await db
    .insertInto('sandbox_operation')
    .values(row)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function insertPayment(db: Executor, row: NewSandboxPaymentRow): Promise<void> {
  await db.insertInto('sandbox_payment').values(row).execute();
}

export async function findPayment(db: Executor, paymentId: string): Promise<SandboxPaymentRow | undefined> {
  return db.selectFrom('sandbox_payment').selectAll().where('payment_id', '=', paymentId).executeTakeFirst();
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
