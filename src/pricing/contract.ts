import { minorToMajor } from './money.js';
import type { BasePriceResult, QuotePriceResult, QuotePriceSummary } from './results.js';

/** A QuotePriceResult in contract units, with the catalogue's planId. */
export type ContractPriceResult = Omit<QuotePriceResult, 'basePriceResult'> & {
  planId: number;
  basePriceResult: BasePriceResult & { planId: number };
};

/**
 * The contract (spec §2.2) carries money as doubles in major units. These convert an engine
 * result at the HTTP boundary: every money field is divided by 10^exponent (see
 * `currencyExponent`); ids, ages, percentages and display orders are left alone.
 */

const MONEY_FIELDS: ReadonlySet<string> = new Set([
  'saleListPrice',
  'saleListCommission',
  'netListPrice',
  'saleCampaignDiscount',
  'netCampaignDiscount',
  'salePartnerDiscount',
  'taxAmount',
  'standardExcess',
  'optionCoverageAmount',
  'minNetListPrice',
  'maxNetListPrice',
  'minSaleListPrice',
  'maxSaleListPrice',
  'maxItemValuePerPolicy',
  'minItemValue',
  'maxItemValuePerUnit',
  'totalPrice',
  'campaignDiscount',
  'partnerDiscount',
  'price',
]);

export function toContractPriceResult(result: QuotePriceResult, planId: number, exponent: number): ContractPriceResult {
  const converted = convert(result, exponent) as QuotePriceResult;
  return {
    planId,
    ...converted,
    basePriceResult: { planId, ...converted.basePriceResult },
  };
}

export function toContractPriceSummary(summary: QuotePriceSummary, planId: number, exponent: number): QuotePriceSummary & { planId: number } {
  return { planId, ...(convert(summary, exponent) as QuotePriceSummary) };
}

function convert(value: unknown, exponent: number): unknown {
  if (Array.isArray(value)) return value.map((v) => convert(v, exponent));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, MONEY_FIELDS.has(key) && typeof v === 'number' ? minorToMajor(v, exponent) : convert(v, exponent)]),
  );
}
