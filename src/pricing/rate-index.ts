import type { Static } from 'typebox';
import { applyPercentage } from '../kernel/money/arithmetic.js';
import type {
  AdventureLevelRate,
  AgeBand,
  BasePrice,
  BasicOptionRate,
  DurationBand,
  PlanRates,
  RateTable,
  SpecifiedItemRate,
  TaxRule,
  Campaign,
} from './rate-tables.js';

/**
 * Lookup structures over one rate table, built once per table object and memoised, so that
 * pricing a quote is map look-ups instead of array scans per traveller and plan.
 */

type Band = Static<typeof DurationBand> | Static<typeof AgeBand>;
type ItemType = Static<typeof SpecifiedItemRate>['itemTypes'][number];

export interface PlanIndex {
  plan: PlanRates;
  /** Key `region|durationBandId|ageBandId`. */
  basePrices: Map<string, Static<typeof BasePrice>>;
  /** Excess → price multiplier. */
  excessMultipliers: Map<number, number>;
  /** Upper-cased optionTypeCode → rate. */
  basicOptions: Map<string, Static<typeof BasicOptionRate>>;
  /** The same entries in display order (then option id): the order options are priced and shown. */
  basicOptionsInOrder: readonly (readonly [string, Static<typeof BasicOptionRate>])[];
  /** Activity id → the highest-ranked level listing it. */
  activityLevels: Map<number, Static<typeof AdventureLevelRate>>;
  /** Upper-cased item type code → item type. */
  itemTypes: Map<string, ItemType>;
  /** Cancellation limit → sale price. */
  cancellationPrices: Map<number, number>;
  /** Lowest and highest sale and net (after the plan's commission) price over the cancellation limits. */
  cancellationRange?: { minSale: number; maxSale: number; minNet: number; maxNet: number };
}

export interface RateIndex {
  table: RateTable;
  regionRanks: Map<string, number>;
  durationBands: readonly Static<typeof DurationBand>[];
  ageBands: readonly Static<typeof AgeBand>[];
  plans: Map<string, PlanIndex>;
  /** Upper-cased home country → its tax rules in application order. */
  taxes: Map<string, TaxRule[]>;
  /** Upper-cased code → campaigns with that code. */
  campaigns: Map<string, Campaign[]>;
  partnerDiscounts: Map<string, number>;
}

const memo = new WeakMap<RateTable, RateIndex>();

/** The index of a table; tables are immutable once loaded, so the table object is the key. */
export function indexRateTable(table: RateTable): RateIndex {
  let index = memo.get(table);
  if (!index) {
    index = buildIndex(table);
    memo.set(table, index);
  }
  return index;
}

export const basePriceKey = (region: string, durationBandId: number, ageBandId: number): string =>
  `${region}|${durationBandId}|${ageBandId}`;

/** The first band (by fromDays / fromAge) containing `value`, or undefined. */
export function findBand<B extends Band>(bands: readonly B[], value: number): B | undefined {
  for (const band of bands) {
    const [from, to] = 'fromDays' in band ? [band.fromDays, band.toDays] : [band.fromAge, band.toAge];
    if (value >= from && value <= to) return band;
  }
  return undefined;
}

function buildIndex(table: RateTable): RateIndex {
  const taxes = new Map<string, TaxRule[]>();
  table.taxes
    .map((rule, position) => ({ rule, position }))
    .sort((a, b) => a.rule.order - b.rule.order || a.position - b.position)
    .forEach(({ rule }) => {
      pushTo(taxes, rule.homeCountryCode.toUpperCase(), rule);
    });
  const campaigns = new Map<string, Campaign[]>();
  for (const campaign of table.campaigns) pushTo(campaigns, normaliseCode(campaign.code), campaign);
  return {
    table,
    regionRanks: new Map(table.ratingRegions.map((r) => [r.code, r.rank])),
    durationBands: [...table.durationBands].sort((a, b) => a.fromDays - b.fromDays),
    ageBands: [...table.ageBands].sort((a, b) => a.fromAge - b.fromAge),
    plans: new Map(table.plans.map((plan) => [plan.planCode, indexPlan(plan)])),
    taxes,
    campaigns,
    partnerDiscounts: new Map(table.partnerDiscounts.map((d) => [d.partnerCode, d.discountPercentage])),
  };
}

function indexPlan(plan: PlanRates): PlanIndex {
  const activityLevels = new Map<number, Static<typeof AdventureLevelRate>>();
  for (const level of plan.adventureActivities?.levels ?? []) {
    for (const id of level.activityIds) {
      const known = activityLevels.get(id);
      if (!known || known.rank < level.rank) activityLevels.set(id, level);
    }
  }
  const basicOptions = new Map(plan.basicOptions.map((o) => [o.optionTypeCode.toUpperCase(), o]));
  const salePrices = (plan.cancellation?.limits ?? []).map((l) => l.salePrice);
  const netPrices = salePrices.map((sale) => sale - applyPercentage(sale, plan.commissionPercentage));
  return {
    plan,
    basePrices: new Map(plan.basePrices.map((p) => [basePriceKey(p.region, p.durationBandId, p.ageBandId), p])),
    excessMultipliers: new Map(plan.excessChoices.map((c) => [c.excess, c.priceMultiplier])),
    basicOptions,
    basicOptionsInOrder: [...basicOptions.entries()].sort(
      ([, a], [, b]) => a.displayOrder - b.displayOrder || a.optionId - b.optionId,
    ),
    ...(salePrices.length > 0
      ? {
          cancellationRange: {
            minSale: Math.min(...salePrices),
            maxSale: Math.max(...salePrices),
            minNet: Math.min(...netPrices),
            maxNet: Math.max(...netPrices),
          },
        }
      : {}),
    activityLevels,
    itemTypes: new Map((plan.specifiedItems?.itemTypes ?? []).map((t) => [t.code.toUpperCase(), t])),
    cancellationPrices: new Map((plan.cancellation?.limits ?? []).map((l) => [l.limit, l.salePrice])),
  };
}

/** Campaign codes are typed by people: compare trimmed and upper-cased. */
export const normaliseCode = (code: string): string => code.trim().toUpperCase();

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
