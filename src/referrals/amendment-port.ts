/**
 * What the referrals area reads of a referred amendment (policy-changes/referral-facts.ts
 * implements it; the console passes it in, so referrals never imports policy-changes).
 */
export interface ReferredAmendment {
  readonly policyChangeId: string;
  readonly policyNumber: string;
  readonly brandCode: string;
  readonly partnerId: number;
  /** The policy's currency (ISO 4217). */
  readonly currency: string;
  /** The amended policy's total premium as repriced (minor units): the authority applies to it. */
  readonly premiumMinor: number;
  /** What the change charges (+) or refunds (−), fee included (minor units). */
  readonly amountMinor: number;
  /** The change's state (PREVIEW until confirmed). */
  readonly state: string;
  readonly expiresAt: string;
  /** What the amendment changes, one line each, no health data (the console shows them). */
  readonly changes: readonly string[];
}

export interface ReferredAmendments {
  factsOf(policyChangeId: string): Promise<ReferredAmendment | undefined>;
}
