import type { Tx } from '../db/database.js';
import { ACTION_TYPE_IDS, POLICY_STATUS } from './model.js';
import { policyDetailNumber } from './policy-number.js';
import { financialRows, personRow, type OptionRow } from './policy-rows.js';
import type { PolicyTransactionRequest } from './transaction-request.js';

/**
 * The policy tables' writes of an amendment or a cancellation (a purchase's are in repository.ts):
 * the header moves to the next sequence number (compare and set on the one it was priced against,
 * so a stale change never applies and two never take the same number), then the new detail and
 * what it records. Runs inside the caller's transaction (policy-changes/commits.ts), on both engines.
 */

const json = (value: unknown) => JSON.stringify(value);

/** Header and detail status after the transaction: a cancellation cancels the policy. */
function statusOf(request: PolicyTransactionRequest) {
  return request.actionType === 'Cancellation'
    ? { id: POLICY_STATUS.Cancelled, name: 'Cancelled' }
    : { id: POLICY_STATUS.Active, name: 'Active' };
}

/**
 * Writes the transaction; its sequence number, or undefined (nothing written) when the policy is
 * no longer at `baseSequenceNumber` or no longer active.
 */
export async function writePolicyTransaction(tx: Tx, request: PolicyTransactionRequest): Promise<number | undefined> {
  const { version, at } = request;
  const status = statusOf(request);
  const sequenceNumber = request.baseSequenceNumber + 1;
  const user = request.createdByUserId;
  const moved = await tx
    .updateTable('policy_header')
    .set({
      sequence_number: sequenceNumber,
      status_id: status.id,
      status: status.name,
      destination_region: version.destinations.region ?? null,
      destination_codes_json: json(version.destinations.codes),
      destination_names_json: json(version.destinations.names),
      display_destination_description: version.destinations.displayDescription ?? null,
      excess_minor: version.excessMinor,
      updated_at: at,
      updated_by_user_id: user,
    })
    .where('id', '=', request.policyHeaderId)
    .where('sequence_number', '=', request.baseSequenceNumber)
    .where('status_id', '=', POLICY_STATUS.Active)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return undefined;
  const detail = await tx
    .insertInto('policy_detail')
    .values({
      policy_header_id: request.policyHeaderId,
      sequence_number: sequenceNumber,
      policy_detail_number: policyDetailNumber(request.policyNumber, sequenceNumber),
      action_type_id: ACTION_TYPE_IDS[request.actionType],
      action_type: request.actionType,
      status_id: status.id,
      status: status.name,
      ip_address: version.client.ipAddress ?? null,
      ip_address_country: version.client.ipAddressCountry ?? null,
      user_agent: version.client.userAgent ?? null,
      departure_date: version.departureDate,
      cover_end_date: version.coverEndDate,
      address_json: json(version.homeAddress),
      specified_items_json: json(version.specifiedItems),
      adventure_level: version.adventure?.level ?? null,
      adventure_activities_json: json(version.adventure?.activities ?? []),
      payment_reference: request.paymentReference ?? null,
      created_at: at,
      created_by_user_id: user,
      updated_at: at,
      updated_by_user_id: user,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids = { headerId: request.policyHeaderId, detailId: detail.id };
  const people = [
    ...version.travellers.map((p, i) => personRow(p, 'traveller', i, ids)),
    ...version.dependents.map((p, i) => personRow(p, 'dependent', i, ids)),
  ];
  await tx.insertInto('policy_traveller').values(people).execute();
  const options = version.options.map((option, i): OptionRow => ({
    policy_header_id: ids.headerId,
    policy_detail_id: ids.detailId,
    plan_id: request.planId,
    option_type_id: option.optionTypeId,
    name: option.name,
    description: option.description ?? null,
    display_order: option.displayOrder ?? i + 1,
  }));
  if (options.length > 0) await tx.insertInto('policy_option').values(options).execute();
  await tx.insertInto('policy_financial_value').values(financialRows(request.amounts, ids)).execute();
  return sequenceNumber;
}

/** Where the policy stands: its latest sequence number and whether it is still active (a change checks it once it holds the policy). */
export async function policyPosition(
  tx: Tx,
  policyHeaderId: number,
): Promise<{ sequenceNumber: number; active: boolean } | undefined> {
  const row = await tx
    .selectFrom('policy_header')
    .select(['sequence_number', 'status_id'])
    .where('id', '=', policyHeaderId)
    .executeTakeFirst();
  return row && { sequenceNumber: row.sequence_number, active: row.status_id === POLICY_STATUS.Active };
}
