import { allocate, applyPercentage, sum } from '../kernel/money/arithmetic.js';
import type { Minor } from '../kernel/money/units.js';
import type { RateIndex } from './rate-index.js';
import type { TaxComponentResult } from './results.js';

/**
 * Taxes of a policy, computed once on the whole premium after discounts and then allocated to
 * its components (base, each option) in proportion to their premiums.
 *
 * Rules apply for the home country, and for the home province when the rule names one, in
 * ascending `order`: base PREMIUM taxes the premium; PREMIUM_AND_PRECEDING_TAXES taxes the premium
 * plus the taxes already applied (e.g. Australian stamp duty on premium + GST).
 */
export function policyTaxes(
  index: RateIndex,
  homeCountryCode: string,
  homeProvinceCode: string | undefined,
  premium: Minor,
): TaxComponentResult[] {
  const province = homeProvinceCode?.trim().toUpperCase();
  const rules = (index.taxes.get(homeCountryCode.trim().toUpperCase()) ?? []).filter(
    (rule) => rule.provinceCode === undefined || rule.provinceCode.toUpperCase() === province,
  );
  const taxes: TaxComponentResult[] = [];
  for (const rule of rules) {
    const base = rule.base === 'PREMIUM' ? premium : premium + sum(taxes.map((t) => t.taxAmount));
    taxes.push({
      taxName: rule.taxName,
      taxRatePercentage: rule.ratePercentage,
      taxAmount: applyPercentage(base, rule.ratePercentage),
    });
  }
  return taxes;
}

/** Each tax split over the components by premium: result[c] lists component c's tax components. */
export function allocateTaxes(
  taxes: readonly TaxComponentResult[],
  componentPremiums: readonly Minor[],
): TaxComponentResult[][] {
  const shares = taxes.map((tax) => allocate(tax.taxAmount, componentPremiums));
  return componentPremiums.map((_, c) =>
    taxes.map((tax, t) => ({
      taxName: tax.taxName,
      taxRatePercentage: tax.taxRatePercentage,
      taxAmount: shares[t]?.[c] ?? 0,
    })),
  );
}
