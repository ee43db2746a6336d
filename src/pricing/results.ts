import type { Minor } from '../kernel/money/units.js';

/**
 * Engine results. Shapes and field names follow spec §2.2 (QuotePriceResult, QuotePriceSummary and
 * their parts) except that every money amount is integer minor units (`contract.ts` converts) and
 * `planId` is absent: rate tables know plans by code; the quotes area adds the catalogue's planId.
 */

/** The sale/net breakdown of one priced thing (a component or one of its parts). */
export interface PriceBreakdown {
  /** List price the customer is charged before discounts and taxes. */
  saleListPrice: Minor;
  /** The partner's commission on the sale list price (plan commissionPercentage). */
  saleListCommission: Minor;
  /** saleListPrice − saleListCommission: what the insurer receives before discounts. */
  netListPrice: Minor;
  /** Campaign discount on the sale list price (reduces what the customer pays). */
  saleCampaignDiscount: Minor;
  /** The insurer's share of the campaign discount: the campaign percentage of netListPrice. */
  netCampaignDiscount: Minor;
  /** Partner discount on the sale price after campaign discount, paid from commission. */
  salePartnerDiscount: Minor;
}

export interface TaxComponentResult {
  taxName: string;
  taxRatePercentage: number;
  taxAmount: Minor;
}

export interface BasePriceResultDetail extends PriceBreakdown {
  /** The traveller this detail prices (not a spec field; the spec orders details as travellers). */
  policyHolderGuid: string;
  age: number;
  ageRangeId: number;
  netListPriceId: number;
  saleListPriceId: number;
}

export interface BasePriceResult extends PriceBreakdown {
  taxComponents: TaxComponentResult[];
  priceDetails: BasePriceResultDetail[];
}

export interface OptionPriceResultDetail extends PriceBreakdown {
  optionSubTypeCode?: string;
  /** Traveller guid for per-traveller options, item guid for specified items. */
  itemGuid: string;
  saleListPricePercentage?: number;
  minItemValue?: Minor;
  maxItemValuePerUnit?: Minor;
  specifiedItemTypeId?: number;
  specifiedItemTypeCode?: string;
  specifiedItemTypeName?: string;
  isDefault: boolean;
  /** The rate row that priced this part, where the rate table gives it an id (a basic option: its optionId). */
  netListPriceId?: number;
  saleListPriceId?: number;
}

export interface OptionPriceResult extends PriceBreakdown {
  optionId: number;
  optionTypeCode: string;
  /** Per-traveller lines (MEDICAL): the traveller. */
  policyHolderGuid?: string;
  /** Cover amount: cancellation limit, or total declared value of specified items. */
  optionCoverageAmount?: Minor;
  minNetListPrice?: Minor;
  maxNetListPrice?: Minor;
  minSaleListPrice?: Minor;
  maxSaleListPrice?: Minor;
  maxItemValuePerPolicy?: Minor;
  /** The rate row that priced the option, where the rate table gives it an id (a basic option: its optionId). */
  netListPriceId?: number;
  saleListPriceId?: number;
  /** The quote named this option (opted in explicitly, or chose items/activities/limit). */
  isOptionExplicit: boolean;
  isDefault: boolean;
  taxComponents: TaxComponentResult[];
  priceDetails: OptionPriceResultDetail[];
}

export interface QuotePriceResult {
  standardExcess: Minor;
  campaignId?: number;
  campaignDiscountPercentage: number;
  basePriceResult: BasePriceResult;
  optionPriceResults: OptionPriceResult[];
}

export type TaxComponentSummary = TaxComponentResult;

export interface BasePriceSummary {
  /** Base premium after campaign and partner discounts, before taxes. */
  price: Minor;
  campaignDiscount: Minor;
  partnerDiscount: Minor;
  /** Taxes of the whole policy (base and options): OptionPriceSummary has no tax field. */
  taxComponents: TaxComponentSummary[];
}

export interface OptionItemPriceSummary {
  guid: string;
  price: Minor;
  campaignDiscount: Minor;
  partnerDiscount: Minor;
}

export interface OptionPriceSummary {
  optionId: number;
  optionType: string;
  /** Per-traveller lines (MEDICAL): the traveller. */
  policyHolderGuid?: string;
  /** Option premium after discounts, before taxes. */
  price: Minor;
  campaignDiscount: Minor;
  partnerDiscount: Minor;
  items: OptionItemPriceSummary[];
  displayOrder?: number;
}

export interface QuotePriceSummary {
  /** Premium after discounts of base and every option, plus every tax. */
  totalPrice: Minor;
  standardExcess: Minor;
  campaignDiscountPercentage: number;
  campaignDiscount: Minor;
  partnerDiscount: Minor;
  basePrice: BasePriceSummary;
  specifiedItemOptionPrice?: OptionPriceSummary;
  adventureActivitiesOptionPrice?: OptionPriceSummary;
  basicOptionPrices: OptionPriceSummary[];
  tripCancellationPrice?: OptionPriceSummary;
}

/** Why a plan could not be priced for this request. */
export type NotPriceableReason =
  | 'PLAN_NOT_IN_RATE_TABLE'
  | 'INVALID_REQUEST'
  | 'NO_TRAVELLERS'
  | 'UNKNOWN_REGION'
  | 'DURATION_OUT_OF_BANDS'
  | 'AGE_OUT_OF_BANDS'
  | 'NO_BASE_PRICE'
  | 'EXCESS_NOT_OFFERED'
  | 'OPTION_NOT_OFFERED'
  | 'ADVENTURE_NOT_OFFERED'
  | 'ACTIVITY_NOT_COVERED'
  | 'SPECIFIED_ITEMS_NOT_OFFERED'
  | 'ITEM_TYPE_UNKNOWN'
  | 'ITEM_VALUE_OUT_OF_RANGE'
  | 'ITEMS_OVER_POLICY_LIMIT'
  | 'CANCELLATION_NOT_OFFERED'
  | 'CANCELLATION_LIMIT_NOT_OFFERED';

export interface NotPriceable {
  outcome: 'NOT_PRICEABLE';
  planCode: string;
  reason: NotPriceableReason;
  /** What failed, for a Notification: a traveller or item guid, a code, a field name. */
  detail: string;
}

/** Whether the request's campaign code discounts this plan, and if not, why not. */
export type CampaignStatus = 'NONE' | 'APPLIED' | 'UNKNOWN_CODE' | 'NOT_IN_PERIOD' | 'NOT_FOR_PARTNER' | 'NOT_FOR_PLAN';

export interface PlanPrice {
  outcome: 'PRICED';
  planCode: string;
  currencyCode: string;
  rateTableVersion: string;
  /** The excess the price is for (chosen or standard). */
  excess: Minor;
  campaignStatus: CampaignStatus;
  result: QuotePriceResult;
  summary: QuotePriceSummary;
}

export type PlanPricing = PlanPrice | NotPriceable;

export const notPriceable = (planCode: string, reason: NotPriceableReason, detail: string): NotPriceable => ({
  outcome: 'NOT_PRICEABLE',
  planCode,
  reason,
  detail,
});
