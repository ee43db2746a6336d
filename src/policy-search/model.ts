/** The operators' policy search (issue 31): one way of searching at a time, newest first, paged. */

export const SEARCH_KINDS = ['policyNumber', 'traveller', 'email', 'bookingReference', 'partnerCode'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export type PolicySearch =
  | { readonly kind: 'policyNumber'; readonly policyNumber: string }
  /** Surname prefix, optionally a first-name prefix; case-insensitive. */
  | { readonly kind: 'traveller'; readonly surname: string; readonly firstName?: string }
  /** Exact, case-insensitive. */
  | { readonly kind: 'email'; readonly email: string }
  | { readonly kind: 'bookingReference'; readonly bookingReference: string }
  | { readonly kind: 'partnerCode'; readonly partnerCode: string };

/** Rows of a page at most. */
export const SEARCH_PAGE_MAX = 50;

/** One policy found: what tells it apart, no health data. */
export interface PolicyHit {
  readonly policyHeaderId: number;
  readonly policyNumber: string;
  readonly brandCode: string;
  readonly partnerCode: string;
  readonly status: string;
  readonly issuedAt: string;
  /** The primary traveller of the latest transaction. */
  readonly primaryTraveller: string;
  readonly bookingReference?: string;
}

export interface PolicySearchPage {
  readonly hits: PolicyHit[];
  /** Pass as `after` for the next page; absent on the last page. */
  readonly next?: number;
}
