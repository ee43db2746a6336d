import { minorDigits, toMinor } from '../kernel/money/units.js';
import type { BrandReferralsFile, ReferralRuleFile } from './referral-files.js';

/**
 * A brand's referral rules compiled from `<brand>/referrals.yaml` (checked by checks-referrals.ts):
 * amounts in minor units of the brand currency. The referrals area (src/referrals/rules.ts) judges
 * a quote against them.
 */

/** What a rule looks at. */
export const REFERRAL_RULE_KINDS = [
  'TRIP_VALUE_PER_TRAVELLER',
  'TRAVELLER_AGE',
  'SCREENING_REFERRED',
  'DUPLICATE_POLICY',
  'DESTINATION_WATCH_LIST',
] as const;
export type ReferralRuleKind = (typeof REFERRAL_RULE_KINDS)[number];

export type ReferralRule =
  | { readonly kind: 'TRIP_VALUE_PER_TRAVELLER'; readonly reasonCode: string; readonly aboveMinor: number }
  | { readonly kind: 'TRAVELLER_AGE'; readonly reasonCode: string; readonly aboveYears: number }
  | { readonly kind: 'SCREENING_REFERRED'; readonly reasonCode: string }
  | { readonly kind: 'DUPLICATE_POLICY'; readonly reasonCode: string }
  | { readonly kind: 'DESTINATION_WATCH_LIST'; readonly reasonCode: string; readonly destinations: readonly string[] };

/** Who may decide a referral, by the quote's total premium of the chosen plan (minor units). */
export interface UnderwritingAuthority {
  readonly underwriterLimitMinor: number;
  readonly secondApprovalAboveMinor: number;
}

export interface BrandReferrals {
  readonly authority: UnderwritingAuthority;
  readonly rules: readonly ReferralRule[];
  /** Plan code → its own rules (replacing `rules`). */
  readonly plans: Readonly<Record<string, readonly ReferralRule[]>>;
}

/** A catalogue version imported before referrals existed refers nothing. */
export const NO_REFERRALS: BrandReferrals = {
  authority: { underwriterLimitMinor: 0, secondApprovalAboveMinor: 0 },
  rules: [],
  plans: {},
};

/** The rules that apply to a plan code (the brand's unless the plan has its own). */
export function referralRulesOf(referrals: BrandReferrals, planCode: string | undefined): readonly ReferralRule[] {
  return (planCode === undefined ? undefined : referrals.plans[planCode]) ?? referrals.rules;
}

function compileRule(rule: ReferralRuleFile, digits: number): ReferralRule {
  const { reasonCode } = rule;
  switch (rule.kind) {
    case 'TRIP_VALUE_PER_TRAVELLER':
      return { kind: rule.kind, reasonCode, aboveMinor: toMinor(rule.above ?? 0, digits) };
    case 'TRAVELLER_AGE':
      return { kind: rule.kind, reasonCode, aboveYears: rule.above ?? 0 };
    case 'DESTINATION_WATCH_LIST':
      return { kind: rule.kind, reasonCode, destinations: rule.destinations ?? [] };
    default:
      return { kind: rule.kind, reasonCode };
  }
}

export function compileBrandReferrals(file: BrandReferralsFile, currencyCode: string): BrandReferrals {
  const digits = minorDigits(currencyCode);
  const rules = (list: readonly ReferralRuleFile[]) => list.map((r) => compileRule(r, digits));
  return {
    authority: {
      underwriterLimitMinor: toMinor(file.authority.underwriterLimit, digits),
      secondApprovalAboveMinor: toMinor(file.authority.secondApprovalAbove, digits),
    },
    rules: rules(file.rules),
    plans: Object.fromEntries(Object.entries(file.plans ?? {}).map(([code, plan]) => [code, rules(plan.rules)])),
  };
}
