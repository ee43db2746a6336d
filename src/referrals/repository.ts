import type { Executor } from '../db/database.js';
import { REFERRAL_STATUSES, type PendingApproval, type Referral, type ReferralStatus } from './model.js';
import type { ReferralRow } from './tables.js';

/** Every query of the `referral` table; callers see `Referral`. */

function referralOf(row: ReferralRow): Referral {
  return {
    id: row.public_id,
    ...(row.quote_id === null ? {} : { quoteId: row.quote_id }),
    ...(row.policy_change_id === null ? {} : { policyChangeId: row.policy_change_id }),
    ...(row.policy_number === null ? {} : { policyNumber: row.policy_number }),
    brandCode: row.brand_code,
    partnerId: row.partner_id,
    status: row.status as ReferralStatus,
    reasonCodes: JSON.parse(row.reason_codes_json) as string[],
    fingerprint: row.fingerprint,
    referredAt: row.referred_at,
    ...(row.decided_at === null ? {} : { decidedAt: row.decided_at }),
    ...(row.decided_by_operator_id === null ? {} : { decidedBy: row.decided_by_operator_id }),
    ...(row.loading_hundredths === null ? {} : { loadingPercentage: row.loading_hundredths / 100 }),
    ...(row.extra_excess_minor === null ? {} : { extraExcessMinor: row.extra_excess_minor }),
    ...(row.decline_reason === null ? {} : { declineReason: row.decline_reason }),
    ...(row.information_requested === null ? {} : { informationRequested: row.information_requested }),
    ...(row.pending_approval_json === null
      ? {}
      : { pendingApproval: JSON.parse(row.pending_approval_json) as PendingApproval }),
    version: row.version,
  };
}

export async function referralOfQuote(db: Executor, quoteId: string): Promise<Referral | undefined> {
  const row = await db.selectFrom('referral').selectAll().where('quote_id', '=', quoteId).executeTakeFirst();
  return row ? referralOf(row) : undefined;
}

export async function findReferral(db: Executor, id: string): Promise<Referral | undefined> {
  const row = await db.selectFrom('referral').selectAll().where('public_id', '=', id).executeTakeFirst();
  return row ? referralOf(row) : undefined;
}

/** What (re)opening a referral writes: a quote's, or (quoteId absent) an amendment's. */
export interface OpenedReferral extends Pick<Referral, 'quoteId' | 'policyChangeId' | 'policyNumber'> {
  readonly id: string;
  readonly brandCode: string;
  readonly partnerId: number;
  readonly reasonCodes: readonly string[];
  readonly fingerprint: string;
  readonly at: string;
}

const CLEARED = {
  decided_at: null,
  decided_by_operator_id: null,
  loading_hundredths: null,
  extra_excess_minor: null,
  decline_reason: null,
  information_requested: null,
  pending_approval_json: null,
};

/**
 * Opens the quote's referral, or reopens its row (status REFERRED, new reasons and fingerprint,
 * decision cleared). Reopening checks the version read, so a decision that committed meanwhile
 * is not overwritten unseen: false then.
 */
export async function openReferral(db: Executor, opened: OpenedReferral, readVersion?: number): Promise<boolean> {
  const values = {
    status: 'REFERRED',
    reason_codes_json: JSON.stringify(opened.reasonCodes),
    fingerprint: opened.fingerprint,
    referred_at: opened.at,
    ...CLEARED,
  };
  if (readVersion === undefined) {
    await db
      .insertInto('referral')
      .values({
        public_id: opened.id,
        quote_id: opened.quoteId ?? null,
        policy_change_id: opened.policyChangeId ?? null,
        policy_number: opened.policyNumber ?? null,
        brand_code: opened.brandCode,
        partner_id: opened.partnerId,
        version: 1,
        ...values,
      })
      .execute();
    return true;
  }
  const result = await db
    .updateTable('referral')
    .set({ ...values, version: readVersion + 1 })
    .where('public_id', '=', opened.id)
    .where('version', '=', readVersion)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Drops a quote's referral that is still waiting (its rules no longer fire); false when it moved meanwhile. */
export async function dropReferral(db: Executor, id: string, readVersion: number): Promise<boolean> {
  const result = await db
    .deleteFrom('referral')
    .where('public_id', '=', id)
    .where('version', '=', readVersion)
    .where('status', 'in', ['REFERRED', 'INFORMATION_REQUESTED'])
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A decision's changes (undefined fields are left as they are). */
export interface ReferralUpdate {
  readonly status: ReferralStatus;
  readonly at: string;
  readonly operatorId?: number;
  readonly loadingPercentage?: number;
  readonly extraExcessMinor?: number;
  readonly declineReason?: string;
  readonly informationRequested?: string;
  /** null clears a pending first approval. */
  readonly pendingApproval?: PendingApproval | null;
  /** Whether this is a decision (sets `decided_at`/`decided_by`); a pending first approval is not. */
  readonly decides: boolean;
}

/**
 * Writes a decision if the referral is still at `readVersion` and in one of `from`: the one
 * winner of concurrent decisions. Answers the referral as written, or undefined when it moved.
 */
export async function updateReferral(
  db: Executor,
  id: string,
  readVersion: number,
  from: readonly ReferralStatus[],
  update: ReferralUpdate,
): Promise<Referral | undefined> {
  const row = await db
    .updateTable('referral')
    .set({
      status: update.status,
      version: readVersion + 1,
      ...(update.decides ? { decided_at: update.at, decided_by_operator_id: update.operatorId ?? null } : {}),
      ...(update.loadingPercentage === undefined
        ? {}
        : { loading_hundredths: Math.round(update.loadingPercentage * 100) }),
      ...(update.extraExcessMinor === undefined ? {} : { extra_excess_minor: update.extraExcessMinor }),
      ...(update.declineReason === undefined ? {} : { decline_reason: update.declineReason }),
      ...(update.informationRequested === undefined ? {} : { information_requested: update.informationRequested }),
      ...(update.pendingApproval === undefined
        ? {}
        : { pending_approval_json: update.pendingApproval === null ? null : JSON.stringify(update.pendingApproval) }),
    })
    .where('public_id', '=', id)
    .where('version', '=', readVersion)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst();
  return row ? referralOf(row) : undefined;
}

export async function referralOfChange(db: Executor, policyChangeId: string): Promise<Referral | undefined> {
  const row = await db
    .selectFrom('referral')
    .selectAll()
    .where('policy_change_id', '=', policyChangeId)
    .executeTakeFirst();
  return row ? referralOf(row) : undefined;
}

/**
 * The policy's latest APPROVED referral of this fingerprint: its quote's, or one of its
 * amendments'. An amendment judged the same as an approved one is covered by it.
 */
export async function latestApprovalOfPolicy(
  db: Executor,
  policy: { readonly quoteId: string; readonly policyNumber: string },
  fingerprint: string,
): Promise<Referral | undefined> {
  const row = await db
    .selectFrom('referral')
    .selectAll()
    .where((eb) => eb.or([eb('quote_id', '=', policy.quoteId), eb('policy_number', '=', policy.policyNumber)]))
    .where('status', '=', 'APPROVED')
    .where('fingerprint', '=', fingerprint)
    .orderBy('decided_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? referralOf(row) : undefined;
}

/** The queue's filters; `olderThan` an ISO instant (referred before it). */
export interface OpenReferralFilters {
  readonly brandCode?: string;
  readonly reasonCode?: string;
  readonly referredBefore?: string;
}

/** Open referrals, oldest first, a page at a time (`after`: the last id of the page before). */
export async function openReferrals(
  db: Executor,
  filters: OpenReferralFilters,
  page: { readonly limit: number; readonly offset: number },
): Promise<Referral[]> {
  let query = db
    .selectFrom('referral')
    .selectAll()
    .where('status', 'in', ['REFERRED', 'INFORMATION_REQUESTED'])
    .orderBy('referred_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset);
  if (filters.brandCode !== undefined) query = query.where('brand_code', '=', filters.brandCode);
  if (filters.referredBefore !== undefined) query = query.where('referred_at', '<', filters.referredBefore);
  // Reason codes are few per referral: matched on the JSON text's quoted code (codes are [A-Z0-9_]).
  if (filters.reasonCode !== undefined) query = query.where('reason_codes_json', 'like', `%"${filters.reasonCode}"%`);
  return (await query.execute()).map(referralOf);
}

export const isReferralStatus = (value: string): value is ReferralStatus =>
  (REFERRAL_STATUSES as readonly string[]).includes(value);
