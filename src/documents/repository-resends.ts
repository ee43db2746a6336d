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
