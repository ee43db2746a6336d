/**
 * Referrals (issue 31): a stored quote a catalogue rule fires on waits for an underwriter, who
 * approves it (with a loading or an extra excess), declines it or asks for information; the
 * partner may withdraw it. One referral per quote; it applies while the quote's fingerprint is the
 * one judged (rules.ts `referralFingerprint`).
 */
export const REFERRAL_STATUSES = ['REFERRED', 'INFORMATION_REQUESTED', 'APPROVED', 'DECLINED', 'WITHDRAWN'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

/** Waiting for an underwriter: still decidable, and still withdrawable. */
export const OPEN_STATUSES: readonly ReferralStatus[] = ['REFERRED', 'INFORMATION_REQUESTED'];
export const isOpen = (status: ReferralStatus): boolean => OPEN_STATUSES.includes(status);

/** Loading percentages an underwriter may add (of the plan's premium). */
export const MAX_LOADING_PERCENTAGE = 500;

/** An approval above the second-approval threshold waiting for a second senior underwriter. */
export interface PendingApproval {
  readonly operatorId: number;
  readonly loadingPercentage: number;
  readonly extraExcessMinor: number;
  readonly at: string;
}

/** A referral in domain terms (money in minor units of the quote's currency). */
export interface Referral {
  /** Public id (`ref_…` free: a random record id). */
  readonly id: string;
  /** The referred quote; absent for an amendment's referral (exactly one of quoteId, policyChangeId). */
  readonly quoteId?: string;
  /** The referred amendment (policy change public id). */
  readonly policyChangeId?: string;
  /** The amended policy (with policyChangeId). */
  readonly policyNumber?: string;
  readonly brandCode: string;
  readonly partnerId: number;
  readonly status: ReferralStatus;
  readonly reasonCodes: readonly string[];
  /** What was judged (rules.ts `referralFingerprint`). */
  readonly fingerprint: string;
  readonly referredAt: string;
  readonly decidedAt?: string;
  readonly decidedBy?: number;
  readonly loadingPercentage?: number;
  readonly extraExcessMinor?: number;
  readonly declineReason?: string;
  readonly informationRequested?: string;
  readonly pendingApproval?: PendingApproval;
  /** Optimistic concurrency: every change checks and bumps it. */
  readonly version: number;
}

/** What an approval adds to the quote (minor units). */
export interface ApprovalTerms {
  readonly loadingPercentage: number;
  readonly extraExcessMinor: number;
}
