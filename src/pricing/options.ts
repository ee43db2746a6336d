import { travellerShare } from './base.js';
import { allocateBreakdown, breakDown, type Rates } from './breakdown.js';
import { applyPercentage, roundToMinor, sum } from '../kernel/money/arithmetic.js';
import type { Minor } from '../kernel/money/units.js';
import type { PlanIndex } from './rate-index.js';
import type { PricingRequest, PricingTraveller } from './request.js';
import { notPriceable, type NotPriceable, type OptionPriceResult, type OptionPriceResultDetail } from './results.js';

/** An option before taxes are allocated to it. */
export type PricedOption = Omit<OptionPriceResult, 'taxComponents'>;
export interface PricedBasicOption {
  option: PricedOption;
  displayOrder: number;
}

/** optionTypeCode of the options that are not basic options (spec: values "not shown"). */
export const ADVENTURE_OPTION_TYPE = 'ADVENTUREACTIVITIES';
export const SPECIFIED_ITEMS_OPTION_TYPE = 'SPECIFIEDITEMS';
export const CANCELLATION_OPTION_TYPE = 'CANCELLATION';

type Detail = Omit<OptionPriceResultDetail, keyof ReturnType<typeof breakDown>>;

/** A component whose sale is the sum of its parts' sales; the breakdown is allocated to them. */
function component(
  head: Omit<PricedOption, keyof ReturnType<typeof breakDown> | 'priceDetails'>,
  sale: Minor,
  details: readonly { detail: Detail; sale: Minor }[],
  rates: Rates,
): PricedOption {
  const whole = breakDown(sale, rates);
  const parts = allocateBreakdown(
    whole,
    details.map((d) => d.sale),
  );
  const priceDetails = details.map((d, i) => Object.assign({}, d.detail, parts[i] ?? breakDown(0, rates)));
  return Object.assign({}, head, whole, { priceDetails });
}

/** Per-traveller lines of an adult price, dependents at the plan's dependent share. */
function perTraveller(
  plan: PlanIndex,
  travellers: readonly PricingTraveller[],
  adultPrice: Minor,
  detail: (t: PricingTraveller) => Detail,
) {
  return travellers.map((t) => ({
    detail: detail(t),
    sale: t.isDependent ? applyPercentage(adultPrice, travellerShare(plan, t)) : adultPrice,
  }));
}

/**
 * Basic options in force: the table's defaults, overridden by the quote's opt-ins and opt-outs.
 * Opting in to an option the plan does not offer makes the plan not priceable.
 */
export function priceBasicOptions(
  plan: PlanIndex,
  request: PricingRequest,
  baseSale: Minor,
  rates: Rates,
): PricedBasicOption[] | NotPriceable {
  const choices = new Map((request.basicOptions ?? []).map((c) => [c.optionTypeCode.toUpperCase(), c.isOptedIn]));
  for (const [code, optedIn] of choices) {
    if (optedIn && !plan.basicOptions.has(code)) return notPriceable(plan.plan.planCode, 'OPTION_NOT_OFFERED', code);
  }
  const priced: PricedBasicOption[] = [];
  for (const [code, rate] of plan.basicOptionsInOrder) {
    const explicit = choices.get(code);
    if (!(explicit ?? rate.isDefault)) continue;
    // A basic option's rate is one row of the table, identified by its optionId: it is the price row.
    const head = {
      optionId: rate.optionId,
      optionTypeCode: rate.optionTypeCode,
      netListPriceId: rate.optionId,
      saleListPriceId: rate.optionId,
      isOptionExplicit: explicit !== undefined,
      isDefault: rate.isDefault,
    };
    const displayOrder = rate.displayOrder;
    if (rate.basis === 'PER_TRAVELLER') {
      const adult = roundToMinor(rate.amount);
      const lines = perTraveller(plan, request.travellers, adult, (t) => ({
        itemGuid: t.guid,
        netListPriceId: rate.optionId,
        saleListPriceId: rate.optionId,
        isDefault: rate.isDefault,
      }));
      priced.push({ option: component(head, sum(lines.map((l) => l.sale)), lines, rates), displayOrder });
    } else {
      const sale = rate.basis === 'PER_POLICY' ? roundToMinor(rate.amount) : applyPercentage(baseSale, rate.amount);
      priced.push({ option: component(head, sale, [], rates), displayOrder });
    }
  }
  return priced;
}

/** Adventure activities: the highest level any chosen activity needs, per traveller. */
export function priceAdventure(
  plan: PlanIndex,
  request: PricingRequest,
  rates: Rates,
): PricedOption | undefined | NotPriceable {
  const ids = request.adventureActivityIds ?? [];
  if (ids.length === 0) return undefined;
  const planCode = plan.plan.planCode;
  const adventure = plan.plan.adventureActivities;
  if (!adventure) return notPriceable(planCode, 'ADVENTURE_NOT_OFFERED', ADVENTURE_OPTION_TYPE);
  let level: (typeof adventure.levels)[number] | undefined;
  for (const id of ids) {
    const needed = plan.activityLevels.get(id);
    if (!needed) return notPriceable(planCode, 'ACTIVITY_NOT_COVERED', String(id));
    if (!level || needed.rank > level.rank) level = needed;
  }
  if (!level) return undefined;
  const subType = level.level;
  const lines = perTraveller(plan, request.travellers, level.pricePerTraveller, (t) => ({
    itemGuid: t.guid,
    optionSubTypeCode: subType,
    isDefault: false,
  }));
  const head = {
    optionId: adventure.optionId,
    optionTypeCode: ADVENTURE_OPTION_TYPE,
    isOptionExplicit: true,
    isDefault: false,
  };
  return component(head, sum(lines.map((l) => l.sale)), lines, rates);
}

/** Specified items: each item at the plan's percentage of its value, within the item limits. */
export function priceSpecifiedItems(
  plan: PlanIndex,
  request: PricingRequest,
  rates: Rates,
): PricedOption | undefined | NotPriceable {
  const items = request.specifiedItems ?? [];
  if (items.length === 0) return undefined;
  const planCode = plan.plan.planCode;
  const rate = plan.plan.specifiedItems;
  if (!rate) return notPriceable(planCode, 'SPECIFIED_ITEMS_NOT_OFFERED', SPECIFIED_ITEMS_OPTION_TYPE);
  const lines: { detail: Detail; sale: Minor }[] = [];
  for (const item of items) {
    const type = plan.itemTypes.get(item.itemTypeCode.toUpperCase());
    if (!type) return notPriceable(planCode, 'ITEM_TYPE_UNKNOWN', item.guid);
    if (item.itemValue < rate.minItemValue || item.itemValue > rate.maxItemValuePerUnit) {
      return notPriceable(planCode, 'ITEM_VALUE_OUT_OF_RANGE', item.guid);
    }
    lines.push({
      sale: applyPercentage(item.itemValue, rate.salePricePercentage),
      detail: {
        itemGuid: item.guid,
        saleListPricePercentage: rate.salePricePercentage,
        minItemValue: rate.minItemValue,
        maxItemValuePerUnit: rate.maxItemValuePerUnit,
        specifiedItemTypeId: type.id,
        specifiedItemTypeCode: type.code,
        specifiedItemTypeName: type.name,
        isDefault: false,
      },
    });
  }
  const covered = sum(items.map((i) => i.itemValue));
  if (covered > rate.maxItemValuePerPolicy)
    return notPriceable(planCode, 'ITEMS_OVER_POLICY_LIMIT', SPECIFIED_ITEMS_OPTION_TYPE);
  const head = {
    optionId: rate.optionId,
    optionTypeCode: SPECIFIED_ITEMS_OPTION_TYPE,
    optionCoverageAmount: covered,
    maxItemValuePerPolicy: rate.maxItemValuePerPolicy,
    isOptionExplicit: true,
    isDefault: false,
  };
  return component(head, sum(lines.map((l) => l.sale)), lines, rates);
}

/** Sale and net price range over the limits: indexed once for the plan's own commission. */
function cancellationRange(
  plan: PlanIndex,
  rate: NonNullable<PlanIndex['plan']['cancellation']>,
  rates: Rates,
): NonNullable<PlanIndex['cancellationRange']> {
  if (plan.cancellationRange && rates.commissionPercentage === plan.plan.commissionPercentage)
    return plan.cancellationRange;
  const salePrices = rate.limits.map((l) => l.salePrice);
  const netPrices = salePrices.map((s) => breakDown(s, rates).netListPrice);
  return {
    minSale: Math.min(...salePrices),
    maxSale: Math.max(...salePrices),
    minNet: Math.min(...netPrices),
    maxNet: Math.max(...netPrices),
  };
}

/** Cancellation cover: always priced when the plan has it, at the chosen or default limit. */
export function priceCancellation(
  plan: PlanIndex,
  request: PricingRequest,
  rates: Rates,
): PricedOption | undefined | NotPriceable {
  const planCode = plan.plan.planCode;
  const rate = plan.plan.cancellation;
  const chosen = request.cancellationCoverLimit;
  if (!rate)
    return chosen === undefined
      ? undefined
      : notPriceable(planCode, 'CANCELLATION_NOT_OFFERED', CANCELLATION_OPTION_TYPE);
  const limit = chosen ?? rate.defaultLimit;
  const sale = plan.cancellationPrices.get(limit);
  if (sale === undefined) return notPriceable(planCode, 'CANCELLATION_LIMIT_NOT_OFFERED', String(limit));
  const range = cancellationRange(plan, rate, rates);
  const head = {
    optionId: rate.optionId,
    optionTypeCode: CANCELLATION_OPTION_TYPE,
    optionCoverageAmount: limit,
    minSaleListPrice: range.minSale,
    maxSaleListPrice: range.maxSale,
    minNetListPrice: range.minNet,
    maxNetListPrice: range.maxNet,
    isOptionExplicit: chosen !== undefined,
    isDefault: chosen === undefined,
  };
  return component(head, sale, [], rates);
}
