import { minorDigits, toMinor } from '../kernel/money/units.js';
import type { Report } from './check-report.js';
import type { LoadedBrand } from './load.js';

/** servicing.yaml against the brand: overrides name plans of plans.yaml, fees fit the currency's minor unit. */
export function checkServicing({ servicing, plans, brand }: LoadedBrand, report: Report): void {
  const codes = new Set(plans.value.plans.map((p) => p.code));
  const digits = minorDigits(brand.value.currencyCode);
  const checkFee = (path: (string | number)[], fee: number | undefined) => {
    if (fee !== undefined && toMinor(fee, digits) / 10 ** digits !== fee) {
      report(servicing, path, `fee ${fee} has more than ${digits} decimals (${brand.value.currencyCode})`);
    }
  };
  const { defaults } = servicing.value;
  checkFee(['defaults', 'cancellation', 'fee'], defaults.cancellation.fee);
  checkFee(['defaults', 'amendment', 'fee'], defaults.amendment.fee);
  for (const [code, override] of Object.entries(servicing.value.plans ?? {})) {
    if (!codes.has(code)) report(servicing, ['plans', code], `plan code '${code}' is not in plans.yaml`);
    checkFee(['plans', code, 'cancellation', 'fee'], override.cancellation?.fee);
    checkFee(['plans', code, 'amendment', 'fee'], override.amendment?.fee);
  }
}
