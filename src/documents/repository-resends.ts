import type { Executor } from '../db/database.js';

/** The resend record's values (documents/tables.ts `document_resend`). */
export interface ResendRecord {
  readonly policyNumber: string;
  readonly partnerId: number;
  readonly userId: number;
  readonly toOtherAddress: boolean;
  readonly messageKey: string;
  readonly requestedAt: string;
}

/**
 * Takes one resend from a scope's budget for the window starting at `windowStart`: true when one
 * was left. One statement (an upsert whose update is conditional): on PostgreSQL the conflicting
 * row is locked and its condition judged on its newest version, so parallel requests never take
 * more than `limit` between them; SQLite has one writer.
 */
export async function takeResendBudget(
  db: Executor,
  budget: { readonly scope: string; readonly windowStart: string; readonly limit: number },
): Promise<boolean> {
  if (budget.limit < 1) return false;
  const taken = await db
    .insertInto('document_resend_budget')
    .values({ scope: budget.scope, window_start: budget.windowStart, used: 1 })
    .onConflict((oc) =>
      oc
        .columns(['scope', 'window_start'])
        .doUpdateSet((eb) => ({ used: eb('document_resend_budget.used', '+', 1) }))
        .where('document_resend_budget.used', '<', budget.limit),
    )
    .returning('used')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Budgets of windows that started before `before` (no request counts against them any more). */
export async function purgeResendBudgets(db: Executor, before: string): Promise<void> {
  await db.deleteFrom('document_resend_budget').where('window_start', '<', before).execute();
}

export async function recordResend(db: Executor, record: ResendRecord): Promise<void> {
  await db
    .insertInto('document_resend')
    .values({
      policy_number: record.policyNumber,
      partner_id: record.partnerId,
      user_id: record.userId,
      to_other_address: record.toOtherAddress ? 1 : 0,
      message_key: record.messageKey,
      requested_at: record.requestedAt,
    })
    .execute();
}

/** Who asked for each resend of a policy, newest first (operators' record). */
export async function resendsOf(db: Executor, policyNumber: string): Promise<ResendRecord[]> {
  const rows = await db
    .selectFrom('document_resend')
    .selectAll()
    .where('policy_number', '=', policyNumber)
    .orderBy('requested_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    policyNumber: row.policy_number,
    partnerId: row.partner_id,
    userId: row.user_id,
    toOtherAddress: row.to_other_address === 1,
    messageKey: row.message_key,
    requestedAt: row.requested_at,
  }));
}
