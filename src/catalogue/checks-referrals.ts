import { minorDigits, toMinor } from '../kernel/money/units.js';
import type { KnownCodes, Report } from './check-report.js';
import type { LoadedBrand } from './load.js';
import type { ReferralRuleFile } from './referral-files.js';

/**
 * referrals.yaml against the brand: plan overrides name plans of plans.yaml, each rule has the
 * fields its kind needs (and no other), watched destinations exist, reason codes are unique within
 * a list, amounts fit the currency's minor unit, the second-approval threshold is not below the limit.
 */
export function checkReferrals({ referrals, plans, brand }: LoadedBrand, known: KnownCodes, report: Report): void {
  const codes = new Set(plans.value.plans.map((p) => p.code));
  const currency = brand.value.currencyCode;
  const digits = minorDigits(currency);
  const checkAmount = (path: (string | number)[], amount: number) => {
    if (toMinor(amount, digits) / 10 ** digits !== amount)
      report(referrals, path, `${amount} has more than ${digits} decimals (${currency})`);
  };
  const { authority } = referrals.value;
  checkAmount(['authority', 'underwriterLimit'], authority.underwriterLimit);
  checkAmount(['authority', 'secondApprovalAbove'], authority.secondApprovalAbove);
  if (authority.secondApprovalAbove < authority.underwriterLimit)
    report(referrals, ['authority', 'secondApprovalAbove'], 'secondApprovalAbove is below underwriterLimit');
  const checkRules = (path: (string | number)[], rules: readonly ReferralRuleFile[]) => {
    const seen = new Set<string>();
    rules.forEach((rule, i) => {
      const at = [...path, i];
      if (seen.has(rule.reasonCode)) report(referrals, [...at, 'reasonCode'], `reason code '${rule.reasonCode}' repeats`);
      seen.add(rule.reasonCode);
      const needsAbove = rule.kind === 'TRIP_VALUE_PER_TRAVELLER' || rule.kind === 'TRAVELLER_AGE';
      if (needsAbove && rule.above === undefined) report(referrals, at, `${rule.kind} needs 'above'`);
      if (!needsAbove && rule.above !== undefined) report(referrals, [...at, 'above'], `${rule.kind} takes no 'above'`);
      if (rule.kind === 'TRIP_VALUE_PER_TRAVELLER' && rule.above !== undefined) checkAmount([...at, 'above'], rule.above);
      if (rule.kind === 'TRAVELLER_AGE' && rule.above !== undefined && !Number.isInteger(rule.above))
        report(referrals, [...at, 'above'], 'an age limit is whole years');
      if (rule.kind === 'DESTINATION_WATCH_LIST' && rule.destinations === undefined)
        report(referrals, at, "DESTINATION_WATCH_LIST needs 'destinations'");
      if (rule.kind !== 'DESTINATION_WATCH_LIST' && rule.destinations !== undefined)
        report(referrals, [...at, 'destinations'], `${rule.kind} takes no 'destinations'`);
      (rule.destinations ?? []).forEach((code, j) => {
        if (!known.destinations.has(code)) report(referrals, [...at, 'destinations', j], `destination '${code}' is unknown`);
      });
    });
  };
  checkRules(['rules'], referrals.value.rules);
  for (const [code, plan] of Object.entries(referrals.value.plans ?? {})) {
    if (!codes.has(code)) report(referrals, ['plans', code], `plan code '${code}' is not in plans.yaml`);
    checkRules(['plans', code, 'rules'], plan.rules);
  }
}
