import { applyPercentage, sum } from '../kernel/money/arithmetic.js';
import { breakDown, premiumOf, type Rates } from './breakdown.js';
import type { PricedOption } from './options.js';
import type { PricingRequest } from './request.js';
import type { PriceBreakdown } from './results.js';

/**
 * optionTypeCode of an underwriter's loading: the percentage an underwriter added when approving a
 * referred quote (docs/pricing.md "Underwriting loading"), one line on the plan approved.
 */
export const LOADING_OPTION_TYPE = 'UNDERWRITING_LOADING';
/** The loading is not a rate-table option: it has no catalogue option id. */
export const LOADING_OPTION_ID = 0;

/**
 * The loading line of one plan: `percentage` of the premium of every other component but the
 * medical lines (those are the screening's own loading), rounded once. Like a medical premium it
 * carries the plan's commission and no campaign or partner discount. Undefined without a loading.
 */
export function priceLoading(
  planCode: string,
  request: PricingRequest,
  components: readonly PriceBreakdown[],
  commissionPercentage: number,
): PricedOption | undefined {
  const loading = request.underwritingLoadings?.find((l) => l.planCode === planCode);
  if (!loading || loading.percentage <= 0) return undefined;
  const premium = applyPercentage(sum(components.map(premiumOf)), loading.percentage);
  const rates: Rates = { commissionPercentage, campaignPercentage: 0, partnerPercentage: 0 };
  const whole = breakDown(premium, rates);
  return Object.assign({ optionId: LOADING_OPTION_ID, optionTypeCode: LOADING_OPTION_TYPE }, whole, {
    isOptionExplicit: true,
    isDefault: false,
    priceDetails: [Object.assign({ itemGuid: LOADING_OPTION_TYPE, isDefault: false }, whole)],
  });
}
