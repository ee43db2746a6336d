import { premiumOf } from './breakdown.js';
import { sum } from '../kernel/money/arithmetic.js';
import type {
  BasePriceResult,
  OptionPriceResult,
  OptionPriceSummary,
  QuotePriceSummary,
  TaxComponentResult,
} from './results.js';

/** A priced plan's components, grouped as the summary shows them. */
export interface PricedComponents {
  base: BasePriceResult;
  basic: readonly { option: OptionPriceResult; displayOrder: number }[];
  adventure?: OptionPriceResult | undefined;
  specifiedItems?: OptionPriceResult | undefined;
  cancellation?: OptionPriceResult | undefined;
  /** One MEDICAL line per screened traveller opted in for cover (none when absent). */
  medical?: readonly OptionPriceResult[];
  /** The underwriter's UNDERWRITING_LOADING line of an approved referral (pricing/loading.ts). */
  loading?: OptionPriceResult | undefined;
}

/**
 * The QuotePriceSummary of a priced plan, derived from the same components as its
 * QuotePriceResult, so the two never disagree.
 */
export function summarise(
  parts: PricedComponents,
  head: { standardExcess: number; campaignDiscountPercentage: number },
  policyTaxes: TaxComponentResult[],
): QuotePriceSummary {
  const { base } = parts;
  const options = [
    ...parts.basic.map((b) => b.option),
    parts.adventure,
    parts.specifiedItems,
    parts.cancellation,
    ...(parts.medical ?? []),
    parts.loading,
  ].filter((o): o is OptionPriceResult => o !== undefined);
  const components = [base, ...options];
  return {
    totalPrice: sum(components.map(premiumOf)) + sum(policyTaxes.map((t) => t.taxAmount)),
    standardExcess: head.standardExcess,
    campaignDiscountPercentage: head.campaignDiscountPercentage,
    campaignDiscount: sum(components.map((c) => c.saleCampaignDiscount)),
    partnerDiscount: sum(components.map((c) => c.salePartnerDiscount)),
    basePrice: {
      price: premiumOf(base),
      campaignDiscount: base.saleCampaignDiscount,
      partnerDiscount: base.salePartnerDiscount,
      taxComponents: policyTaxes,
    },
    specifiedItemOptionPrice: parts.specifiedItems && optionSummary(parts.specifiedItems),
    adventureActivitiesOptionPrice: parts.adventure && optionSummary(parts.adventure),
    // The contract's summary has no medical slot: MEDICAL lines follow the basic options, one per traveller.
    basicOptionPrices: [
      ...parts.basic.map((b) => Object.assign(optionSummary(b.option), { displayOrder: b.displayOrder })),
      ...(parts.medical ?? []).map(optionSummary),
      ...(parts.loading ? [optionSummary(parts.loading)] : []),
    ],
    tripCancellationPrice: parts.cancellation && optionSummary(parts.cancellation),
  };
}

function optionSummary(option: OptionPriceResult): OptionPriceSummary {
  return {
    optionId: option.optionId,
    optionType: option.optionTypeCode,
    ...(option.policyHolderGuid !== undefined ? { policyHolderGuid: option.policyHolderGuid } : {}),
    price: premiumOf(option),
    campaignDiscount: option.saleCampaignDiscount,
    partnerDiscount: option.salePartnerDiscount,
    items: option.priceDetails.map((d) => ({
      guid: d.itemGuid,
      price: premiumOf(d),
      campaignDiscount: d.saleCampaignDiscount,
      partnerDiscount: d.salePartnerDiscount,
    })),
  };
}
