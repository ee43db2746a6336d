import type { PlanStep } from '../db/commit-plan.js';
import type { Executor } from '../db/database.js';
import type { QuoteInput } from '../quotes/schemas.js';
import type {
  ChallengeInfo,
  ChangeKind,
  ChangePricing,
  ChangeState,
  NewPolicyChange,
  PlannedTransaction,
  PolicyChange,
  RefundLine,
} from './model.js';
import type { Updateable } from 'kysely';
import type { PolicyChangeRow, PolicyChangeTable } from './tables.js';

/** Every query of the `policy_change` table. Rows stay here; callers see `PolicyChange`. */

const json = (value: unknown) => JSON.stringify(value);
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it stored
const parse = <T>(text: string): T => JSON.parse(text) as T;

function toChange(row: PolicyChangeRow): PolicyChange {
  return {
    id: row.public_id,
    kind: row.kind as ChangeKind,
    policyHeaderId: row.policy_header_id,
    policyNumber: row.policy_number,
    brandCode: row.brand_code,
    partnerId: row.partner_id,
    userId: row.user_id,
    baseSequenceNumber: row.base_sequence_number,
    state: row.state as ChangeState,
    attempt: row.attempt,
    expiresAt: row.expires_at,
    amountMinor: row.amount_minor,
    currency: row.currency,
    paymentMethod: row.payment_method as PolicyChange['paymentMethod'],
    pricing: parse<ChangePricing>(row.preview_json),
    transaction: parse<PlannedTransaction>(row.transaction_json),
    ...(row.card_token !== null ? { cardToken: row.card_token } : {}),
    ...(row.payment_id !== null ? { paymentId: row.payment_id } : {}),
    ...(row.payment_result !== null ? { paymentResult: row.payment_result } : {}),
    ...(row.decline_reason !== null ? { declineReason: row.decline_reason } : {}),
    ...(row.three_ds_status !== null ? { threeDSStatus: row.three_ds_status } : {}),
    ...(row.challenge_json !== null ? { challenge: parse<ChallengeInfo>(row.challenge_json) } : {}),
    ...(row.challenge_expires_at !== null ? { challengeExpiresAt: row.challenge_expires_at } : {}),
    ...(row.refunds_json !== null ? { refunds: parse<RefundLine[]>(row.refunds_json) } : {}),
    ...(row.refund_retry_until !== null ? { refundRetryUntil: row.refund_retry_until } : {}),
    ...(row.sequence_number !== null ? { sequenceNumber: row.sequence_number } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function insertChange(db: Executor, change: NewPolicyChange, input?: QuoteInput): Promise<PolicyChange> {
  const row = await db
    .insertInto('policy_change')
    .values({
      public_id: change.id,
      kind: change.kind,
      policy_header_id: change.policyHeaderId,
      policy_number: change.policyNumber,
      brand_code: change.brandCode,
      partner_id: change.partnerId,
      user_id: change.userId,
      base_sequence_number: change.baseSequenceNumber,
      state: 'PREVIEW',
      attempt: 0,
      expires_at: change.expiresAt,
      amount_minor: change.amountMinor,
      currency: change.currency,
      payment_method: change.paymentMethod,
      preview_json: json(change.pricing),
      transaction_json: json(change.transaction),
      input_json: input === undefined ? null : json(input),
      created_at: change.at,
      updated_at: change.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toChange(row);
}

/** A change of `policyNumber` by its id, only for the partner that sold the policy under `brandCode`. */
export async function findChange(
  db: Executor,
  lookup: { id: string; kind: ChangeKind; policyNumber: string; brandCode: string; partnerId: number },
): Promise<PolicyChange | undefined> {
  const row = await db
    .selectFrom('policy_change')
    .selectAll()
    .where('public_id', '=', lookup.id)
    .where('kind', '=', lookup.kind)
    .where('policy_number', '=', lookup.policyNumber)
    .where('brand_code', '=', lookup.brandCode)
    .where('partner_id', '=', lookup.partnerId)
    .executeTakeFirst();
  return row && toChange(row);
}

export async function findChangeById(db: Executor, id: string): Promise<PolicyChange | undefined> {
  const row = await db.selectFrom('policy_change').selectAll().where('public_id', '=', id).executeTakeFirst();
  return row && toChange(row);
}

/** Changes of a policy that moved money or hold it (the payments ledger reads them), oldest first. */
export async function changesWithMoney(db: Executor, policyHeaderId: number): Promise<PolicyChange[]> {
  const rows = await db
    .selectFrom('policy_change')
    .selectAll()
    .where('policy_header_id', '=', policyHeaderId)
    .where('state', 'in', ['APPLIED', 'SETTLED', 'REFUNDING', 'ATTENTION'])
    .orderBy('id')
    .execute();
  return rows.map(toChange);
}

/** The changes that wrote a transaction of the policy (in full or, ATTENTION, in part), by sequence number. */
export async function changesOfTransactions(db: Executor, policyHeaderId: number): Promise<PolicyChange[]> {
  const rows = await db
    .selectFrom('policy_change')
    .selectAll()
    .where('policy_header_id', '=', policyHeaderId)
    .where('sequence_number', 'is not', null)
    .orderBy('sequence_number')
    .execute();
  return rows.map(toChange);
}

/** The input of the policy's latest applied amendment: the next amendment starts from it. */
export async function latestAmendedInput(db: Executor, policyHeaderId: number): Promise<QuoteInput | undefined> {
  const row = await db
    .selectFrom('policy_change')
    .select('input_json')
    .where('policy_header_id', '=', policyHeaderId)
    .where('kind', '=', 'AMENDMENT')
    .where('state', 'in', ['APPLIED', 'SETTLED'])
    .orderBy('sequence_number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.input_json ? parse<QuoteInput>(row.input_json) : undefined;
}

/** What a state change may record beside the state. */
export interface ChangePatch {
  readonly attempt?: number;
  readonly cardToken?: string | null;
  readonly paymentId?: string | null;
  readonly paymentResult?: string | null;
  readonly declineReason?: string | null;
  readonly threeDSStatus?: string | null;
  readonly challenge?: ChallengeInfo | null;
  readonly challengeExpiresAt?: string | null;
  readonly refunds?: readonly RefundLine[] | null;
  readonly refundRetryUntil?: string | null;
  readonly sequenceNumber?: number | null;
}

function columnsOf(patch: ChangePatch): Updateable<PolicyChangeTable> {
  const set: Updateable<PolicyChangeTable> = {};
  if (patch.attempt !== undefined) set.attempt = patch.attempt;
  if (patch.cardToken !== undefined) set.card_token = patch.cardToken;
  if (patch.paymentId !== undefined) set.payment_id = patch.paymentId;
  if (patch.paymentResult !== undefined) set.payment_result = patch.paymentResult;
  if (patch.declineReason !== undefined) set.decline_reason = patch.declineReason;
  if (patch.threeDSStatus !== undefined) set.three_ds_status = patch.threeDSStatus;
  if (patch.challenge !== undefined) set.challenge_json = patch.challenge === null ? null : json(patch.challenge);
  if (patch.challengeExpiresAt !== undefined) set.challenge_expires_at = patch.challengeExpiresAt;
  if (patch.refunds !== undefined) set.refunds_json = patch.refunds === null ? null : json(patch.refunds);
  if (patch.refundRetryUntil !== undefined) set.refund_retry_until = patch.refundRetryUntil;
  if (patch.sequenceNumber !== undefined) set.sequence_number = patch.sequenceNumber;
  return set;
}

/**
 * Compare and set: moves the change to `to` only from one of `from` (and, with `leaseOf`, only if
 * untouched since that `updatedAt`); the moved change, or undefined when another process won.
 * Throws the database's unique violation when `to` holds the policy and another change holds it.
 */
export async function moveChange(
  db: Executor,
  change: PolicyChange,
  from: readonly ChangeState[],
  to: ChangeState,
  patch: ChangePatch,
  at: string,
  leaseOf?: string,
): Promise<PolicyChange | undefined> {
  let update = db
    .updateTable('policy_change')
    .set({ ...columnsOf(patch), state: to, updated_at: at })
    .where('public_id', '=', change.id)
    .where('state', 'in', [...from]);
  if (leaseOf !== undefined) update = update.where('updated_at', '=', leaseOf);
  const row = await update.returningAll().executeTakeFirst();
  return row && toChange(row);
}

/**
 * The step of a commit plan that moves the change in hand from one of `from` to `to` (compare and
 * set), answering its row (`changeOfRow`); none when another process won.
 */
export function moveChangeStep(
  name: string,
  after: string | undefined,
  move: { change: PolicyChange; from: readonly ChangeState[]; to: ChangeState; patch: ChangePatch; at: string },
  orElse: string,
): PlanStep<Record<string, unknown>> {
  const set: Record<string, unknown> = { ...columnsOf(move.patch), state: move.to, updated_at: move.at };
  const columns = Object.keys(set);
  const values: Record<string, unknown> = { ...set, id: move.change.id };
  move.from.forEach((state, i) => (values[`from_${i}`] = state));
  return {
    name,
    ...(after === undefined ? {} : { after }),
    orElse,
    shape: `${move.from.length}:${columns.join(',')}`,
    values,
    build: (qc, { v, gate }) =>
      qc
        .updateTable('policy_change')
        .set(Object.fromEntries(columns.map((column) => [column, v[column]])))
        .where('public_id', '=', v.id as string)
        .where(
          'state',
          'in',
          move.from.map((_, i) => v[`from_${i}`] as string),
        )
        .where(gate)
        .returningAll(),
  };
}

/** The step that locks the change's row while it is in one of `from` (PostgreSQL; see `PlanStep.locks`). */
export function lockChangeStep(
  name: string,
  id: string,
  from: readonly ChangeState[],
  orElse: string,
): PlanStep<Record<string, string>> {
  const values: Record<string, string> = { id };
  from.forEach((state, i) => (values[`from_${i}`] = state));
  return {
    name,
    orElse,
    locks: true,
    shape: String(from.length),
    values,
    build: (qc, { v, lock }) =>
      lock(
        qc
          .selectFrom('policy_change')
          .select('public_id')
          .where('public_id', '=', v.id as string)
          .where(
            'state',
            'in',
            from.map((_, i) => v[`from_${i}`] as string),
          ),
      ),
  };
}

/** The change as a plan's `moveChangeStep` answered it. */
export const changeOfRow = (row: Record<string, unknown>): PolicyChange => toChange(row as PolicyChangeRow);

/** Changes left unfinished and untouched since `before` (their process may have died), oldest first. */
export async function unfinishedChanges(
  db: Executor,
  states: readonly ChangeState[],
  before: string,
): Promise<PolicyChange[]> {
  const rows = await db
    .selectFrom('policy_change')
    .selectAll()
    .where('state', 'in', [...states])
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(500)
    .execute();
  return rows.map(toChange);
}

/** True for the unique violation of `policy_change_one_holder` (another change holds the policy), both engines. */
export function isPolicyHeld(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '23505') return true;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string' && message.includes('policy_change');
}
