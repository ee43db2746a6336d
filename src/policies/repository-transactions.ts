import type { PlanStep } from '../db/commit-plan.js';
import type { Executor } from '../db/database.js';
import { ACTION_TYPE_IDS, POLICY_STATUS } from './model.js';
import { policyDetailNumber } from './policy-number.js';
import { childrenStep } from './repository.js';
import {
  financialRows,
  MONEY_COLUMNS,
  OPTION_COLUMNS,
  personRow,
  TRAVELLER_COLUMNS,
  type OptionRow,
} from './policy-rows.js';
import type { PolicyTransactionRequest } from './transaction-request.js';

/**
 * The policy tables' writes of an amendment or a cancellation (a purchase's are in repository.ts):
 * the header moves to the next sequence number (compare and set on the one it was priced against,
 * so a stale change never applies and two never take the same number), then the new detail and
 * what it records: steps of the change's commit plan (policy-changes/commits.ts, db/commit-plan.ts).
 */

const json = (value: unknown) => JSON.stringify(value);

/** Header and detail status after the transaction: a cancellation cancels the policy. */
function statusOf(request: PolicyTransactionRequest) {
  return request.actionType === 'Cancellation'
    ? { id: POLICY_STATUS.Cancelled, name: 'Cancelled' }
    : { id: POLICY_STATUS.Active, name: 'Active' };
}

/**
 * Steps of a change's commit plan, after the step `after`: the header moves to the next sequence
 * number (compare and set; no row, and the plan ends with `orElse`, when the policy is no longer
 * at `baseSequenceNumber` or no longer active), then the new detail and what it records.
 */
export function policyTransactionSteps(after: string, request: PolicyTransactionRequest, orElse: string): PlanStep[] {
  const { version, at } = request;
  const status = statusOf(request);
  const sequenceNumber = request.baseSequenceNumber + 1;
  const user = request.createdByUserId;
  const header: PlanStep<Record<string, unknown>> = {
    name: 'policy_moved',
    after,
    orElse,
    values: {
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
      id: request.policyHeaderId,
      base: request.baseSequenceNumber,
      active: POLICY_STATUS.Active,
    },
    build: (qc, { v, gate }) => {
      const { id, base, active, ...set } = v;
      return qc
        .updateTable('policy_header')
        .set(set)
        .where('id', '=', id as number)
        .where('sequence_number', '=', base as number)
        .where('status_id', '=', active as number)
        .where(gate)
        .returning('id');
    },
  };
  const detail: PlanStep<Record<string, unknown>> = {
    name: 'policy_detail',
    after: 'policy_moved',
    values: {
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
      payment_method: request.paymentMethod,
      created_at: at,
      created_by_user_id: user,
      updated_at: at,
      updated_by_user_id: user,
    },
    build: (_, { v, insert }) => insert('policy_detail', v).returning(['id', 'policy_header_id']),
  };
  const ids = { headerId: 0, detailId: 0 };
  const people = [
    ...version.travellers.map((p, i) => personRow(p, 'traveller', i, ids)),
    ...version.dependents.map((p, i) => personRow(p, 'dependent', i, ids)),
  ];
  const options = version.options.map((option, i): OptionRow => ({
    policy_header_id: 0,
    policy_detail_id: 0,
    plan_id: request.planId,
    option_type_id: option.optionTypeId,
    name: option.name,
    description: option.description ?? null,
    display_order: option.displayOrder ?? i + 1,
  }));
  return [
    header,
    detail,
    childrenStep('policy_people', 'policy_detail', 'policy_traveller', people, TRAVELLER_COLUMNS),
    ...(options.length > 0
      ? [childrenStep('policy_options', 'policy_detail', 'policy_option', options, OPTION_COLUMNS)]
      : []),
    childrenStep(
      'policy_money',
      'policy_detail',
      'policy_financial_value',
      financialRows(request.amounts, ids),
      MONEY_COLUMNS,
    ),
  ];
}

/**
 * The step that locks the policy's header while it is at `request.baseSequenceNumber` and active
 * (PostgreSQL; see `PlanStep.locks`).
 */
export function lockPolicyAtStep(
  name: string,
  after: string,
  request: PolicyTransactionRequest,
  orElse: string,
): PlanStep<{ id: number; base: number; active: number }> {
  return {
    name,
    after,
    orElse,
    locks: true,
    values: { id: request.policyHeaderId, base: request.baseSequenceNumber, active: POLICY_STATUS.Active },
    build: (qc, { v, gate, lock }) =>
      lock(
        qc
          .selectFrom('policy_header')
          .select('id')
          .where('id', '=', v.id)
          .where('sequence_number', '=', v.base)
          .where('status_id', '=', v.active)
          .where(gate),
      ),
  };
}

/** Where the policy stands: its latest sequence number, whether it is still active, the quote it was bought from (a change checks it before and once it holds the policy). */
export async function policyPosition(
  db: Executor,
  policyHeaderId: number,
): Promise<{ sequenceNumber: number; active: boolean; quoteId: string } | undefined> {
  const row = await db
    .selectFrom('policy_header')
    .select(['sequence_number', 'status_id', 'quote_id'])
    .where('id', '=', policyHeaderId)
    .executeTakeFirst();
  return (
    row && {
      sequenceNumber: row.sequence_number,
      active: row.status_id === POLICY_STATUS.Active,
      quoteId: row.quote_id,
    }
  );
}
