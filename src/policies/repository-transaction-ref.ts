import type { Executor } from '../db/database.js';

/** Which rows one transaction of a policy is, for what hangs off it (notes). */
export interface TransactionRef {
  readonly policyHeaderId: number;
  readonly policyDetailId: number;
  readonly sequenceNumber: number;
  readonly presentationTimeZoneCode: string;
}

/**
 * A policy's transaction by the policy's number and the transaction's sequence number (the latest
 * when absent); no owner check (operators see every policy). By the unique number, then the
 * detail's unique (header, sequence).
 */
export async function transactionRef(
  db: Executor,
  policyNumber: string,
  sequenceNumber?: number,
): Promise<TransactionRef | undefined> {
  const row = await db
    .selectFrom('policy_header as h')
    .innerJoin('policy_detail as d', 'd.policy_header_id', 'h.id')
    .select(['h.id as header_id', 'd.id as detail_id', 'd.sequence_number', 'h.presentation_time_zone_code'])
    .where('h.policy_number', '=', policyNumber)
    .where('d.sequence_number', '=', (eb) =>
      sequenceNumber === undefined ? eb.ref('h.sequence_number') : eb.val(sequenceNumber),
    )
    .executeTakeFirst();
  return (
    row && {
      policyHeaderId: row.header_id,
      policyDetailId: row.detail_id,
      sequenceNumber: row.sequence_number,
      presentationTimeZoneCode: row.presentation_time_zone_code,
    }
  );
}
