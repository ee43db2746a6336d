import type { CatalogueReader } from '../catalogue/reader.js';
import { NO_REFERRALS } from '../catalogue/referrals.js';
import type { StoredQuote } from '../quotes/stored-quote.js';

/** Who may decide a referral: the brand's authority applied to the quote's (or amended policy's) total premium (minor units). */
export interface DecisionAuthority {
  readonly premiumMinor: number;
  readonly currency: string;
  /** Above the underwriter limit: `referral.decide_above_limit` (a senior underwriter). */
  readonly needsSenior: boolean;
  /** Above the second-approval threshold: an approval needs two different senior underwriters. */
  readonly needsSecondApproval: boolean;
}

/** The total premium of the quote's chosen plan (0 when it has no price). */
export function premiumOf(quote: Pick<StoredQuote, 'input' | 'pricing'>): number {
  const planId = quote.input.planId ?? 0;
  return quote.pricing.prices.find((p) => p.planId === planId)?.totalPrice ?? 0;
}

export async function authorityOf(
  catalogue: CatalogueReader,
  subject: { readonly brandCode: string; readonly currency?: string | undefined },
  premiumMinor: number,
): Promise<DecisionAuthority> {
  const brand = (await catalogue.snapshot()).brands.get(subject.brandCode);
  const limits = brand?.referrals.authority ?? NO_REFERRALS.authority;
  return {
    premiumMinor,
    currency: subject.currency ?? brand?.brand.currencyCode ?? 'AUD',
    needsSenior: premiumMinor > limits.underwriterLimitMinor,
    needsSecondApproval: premiumMinor > limits.secondApprovalAboveMinor,
  };
}
