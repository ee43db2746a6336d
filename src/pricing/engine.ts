import { priceBase, resolveRating } from './base.js';
import { premiumOf, type Rates } from './breakdown.js';
import { matchCampaign } from './campaign.js';
import { sum } from '../kernel/money/arithmetic.js';
import {
  priceAdventure,
  priceBasicOptions,
  priceCancellation,
  priceSpecifiedItems,
  type PricedOption,
} from './options.js';
import { priceMedical } from './medical.js';
import { priceLoading } from './loading.js';
import { indexRateTable, type PlanIndex, type RateIndex } from './rate-index.js';
import type { PricingRequest } from './request.js';
import { notPriceable, type NotPriceable, type OptionPriceResult, type PlanPricing } from './results.js';
import { summarise, type PricedComponents } from './summary.js';
import { allocateTaxes, policyTaxes } from './taxes.js';

/**
 * Prices a quote for each requested plan. Pure and deterministic: the same request gives the same
 * answer, nothing is read from outside it, and a plan that cannot be priced comes back as a
 * NOT_PRICEABLE outcome with a reason, never as an exception. docs/pricing.md explains the amounts.
 */
export function priceQuote(request: PricingRequest): PlanPricing[] {
  const index = indexRateTable(request.rateTable);
  const invalid = invalidField(request);
  return request.planCodes.map((planCode) => {
    if (invalid !== undefined) return notPriceable(planCode, 'INVALID_REQUEST', invalid);
    const plan = index.plans.get(planCode);
    return plan ? pricePlan(index, plan, request) : notPriceable(planCode, 'PLAN_NOT_IN_RATE_TABLE', planCode);
  });
}

function pricePlan(index: RateIndex, plan: PlanIndex, request: PricingRequest): PlanPricing {
  const planCode = plan.plan.planCode;
  if (request.travellers.length === 0) return notPriceable(planCode, 'NO_TRAVELLERS', 'travellers');
  const rating = resolveRating(index, planCode, request.regionCodes, request.tripDurationDays);
  if ('outcome' in rating) return rating;
  const excess = request.excess ?? plan.plan.standardExcess;
  const multiplier = plan.excessMultipliers.get(excess) ?? (excess === plan.plan.standardExcess ? 1 : undefined);
  if (multiplier === undefined) return notPriceable(planCode, 'EXCESS_NOT_OFFERED', String(excess));

  const campaign = matchCampaign(index, request.campaignCode, planCode, request.partnerCode, request.quoteDate);
  const campaignPercentage = campaign.campaign?.discountPercentage ?? 0;
  const rates: Rates = {
    commissionPercentage: plan.plan.commissionPercentage,
    campaignPercentage,
    partnerPercentage: request.partnerCode === undefined ? 0 : (index.partnerDiscounts.get(request.partnerCode) ?? 0),
  };

  const base = priceBase(index, plan, rating, request.travellers, multiplier, rates);
  if ('outcome' in base) return base;
  const basic = priceBasicOptions(plan, request, base.saleListPrice, rates);
  if (!Array.isArray(basic)) return basic;
  const adventure = priceAdventure(plan, request, rates);
  if (isNotPriceable(adventure)) return adventure;
  const specifiedItems = priceSpecifiedItems(plan, request, rates);
  if (isNotPriceable(specifiedItems)) return specifiedItems;
  const cancellation = priceCancellation(plan, request, rates);
  if (isNotPriceable(cancellation)) return cancellation;

  const medical = priceMedical(planCode, request, plan.plan.commissionPercentage);

  // Taxes on the whole premium, then shared out to the components that carry them.
  const rated = [
    base,
    ...[...basic.map((b) => b.option), adventure, specifiedItems, cancellation].filter((o) => o !== undefined),
  ];
  const loading = priceLoading(planCode, request, rated, plan.plan.commissionPercentage);
  const options = [...basic.map((b) => b.option), adventure, specifiedItems, cancellation, ...medical, loading];
  const components = [base, ...options.filter((o): o is PricedOption => o !== undefined)];
  const taxes = policyTaxes(index, request.homeCountryCode, request.homeProvinceCode, sum(components.map(premiumOf)));
  const taxShares = allocateTaxes(taxes, components.map(premiumOf));
  const taxed = new Map(components.map((c, i) => [c, taxShares[i] ?? []]));
  const withTaxes = (o: PricedOption | undefined): OptionPriceResult | undefined =>
    o && Object.assign({}, o, { taxComponents: taxed.get(o) ?? [] });

  const parts: PricedComponents = {
    base: Object.assign({}, base, { taxComponents: taxed.get(base) ?? [] }),
    basic: basic.map((b) => ({
      option: Object.assign({}, b.option, { taxComponents: taxed.get(b.option) ?? [] }),
      displayOrder: b.displayOrder,
    })),
    adventure: withTaxes(adventure),
    specifiedItems: withTaxes(specifiedItems),
    cancellation: withTaxes(cancellation),
    medical: medical.map((m) => Object.assign({}, m, { taxComponents: taxed.get(m) ?? [] })),
    loading: withTaxes(loading),
  };
  const head = { standardExcess: plan.plan.standardExcess, campaignDiscountPercentage: campaignPercentage };
  return {
    outcome: 'PRICED',
    planCode,
    currencyCode: index.table.currencyCode,
    rateTableVersion: index.table.version,
    excess,
    campaignStatus: campaign.status,
    result: Object.assign({}, head, campaign.campaign ? { campaignId: campaign.campaign.campaignId } : {}, {
      basePriceResult: parts.base,
      optionPriceResults: [
        ...parts.basic.map((b) => b.option),
        parts.adventure,
        parts.specifiedItems,
        parts.cancellation,
        ...(parts.medical ?? []),
        parts.loading,
      ].filter((o): o is OptionPriceResult => o !== undefined),
    }),
    summary: summarise(parts, head, taxes),
  };
}

function isNotPriceable(value: PricedOption | NotPriceable | undefined): value is NotPriceable {
  return value !== undefined && 'outcome' in value;
}

/** The first request field that is not a usable number, or undefined when all are. */
function invalidField(request: PricingRequest): string | undefined {
  const isMoney = (v: number | undefined) => v === undefined || (Number.isSafeInteger(v) && v >= 0);
  if (!Number.isInteger(request.tripDurationDays)) return 'tripDurationDays';
  if (!isMoney(request.excess)) return 'excess';
  if (!isMoney(request.cancellationCoverLimit)) return 'cancellationCoverLimit';
  const badItem = (request.specifiedItems ?? []).find((i) => !isMoney(i.itemValue));
  if (badItem) return badItem.guid;
  const badTraveller = request.travellers.find((t) => !Number.isInteger(t.age) || t.age < 0);
  if (badTraveller) return badTraveller.guid;
  return undefined;
}
