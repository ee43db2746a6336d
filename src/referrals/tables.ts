import type { Generated, Selectable } from 'kysely';

/**
 * A stored quote's (or an amendment's) referral to an underwriter (referrals/repository.ts owns it): one row per
 * quote, reopened in place when the quote is referred again (the operators' audit trail keeps
 * every decision). Money in minor units of the quote's currency.
 */
export interface ReferralTable {
  id: Generated<number>;
  public_id: string;
  /** The referred quote, or null for a policy change's referral. */
  quote_id: string | null;
  /** The referred amendment's public id (policy_change), or null for a quote's referral. */
  policy_change_id: string | null;
  /** The amended policy's number (with `policy_change_id`). */
  policy_number: string | null;
  brand_code: string;
  partner_id: number;
  status: string;
  /** JSON array of reason codes. */
  reason_codes_json: string;
  fingerprint: string;
  referred_at: string;
  decided_at: string | null;
  decided_by_operator_id: number | null;
  /** The loading percentage × 100 (exact: 12.5 % is 1250). */
  loading_hundredths: number | null;
  extra_excess_minor: number | null;
  decline_reason: string | null;
  information_requested: string | null;
  /** JSON of the first approval above the second-approval threshold (PendingApproval), or null. */
  pending_approval_json: string | null;
  version: number;
}
export type ReferralRow = Selectable<ReferralTable>;

declare module '../db/database.js' {
  interface Database {
    referral: ReferralTable;
  }
}
