import { allocateBreakdown, breakDown, type Rates } from './breakdown.js';
import { applyFactor, applyPercentage, sum } from '../kernel/money/arithmetic.js';
import type { Minor } from '../kernel/money/units.js';
import { basePriceKey, findBand, type PlanIndex, type RateIndex } from './rate-index.js';
import type { PricingTraveller } from './request.js';
import { notPriceable, type BasePriceResult, type NotPriceable } from './results.js';

/** Where the trip rates: the highest-ranked region and the duration band. */
export interface Rating {
  region: string;
  durationBandId: number;
}

/** Resolves the rating region and duration band, or says why the trip cannot be rated. */
export function resolveRating(
  index: RateIndex,
  planCode: string,
  regionCodes: readonly string[],
  days: number,
): Rating | NotPriceable {
  let region: string | undefined;
  let rank = -1;
  for (const code of regionCodes) {
    const r = index.regionRanks.get(code);
    if (r === undefined) return notPriceable(planCode, 'UNKNOWN_REGION', code);
    if (r > rank) [region, rank] = [code, r];
  }
  if (region === undefined) return notPriceable(planCode, 'UNKNOWN_REGION', 'regionCodes');
  const band = findBand(index.durationBands, days);
  if (!band) return notPriceable(planCode, 'DURATION_OUT_OF_BANDS', String(days));
  return { region, durationBandId: band.id };
}

/** A traveller's share of an adult's price: 100 % for an adult, the plan's share for a dependent. */
export const travellerShare = (plan: PlanIndex, traveller: PricingTraveller): number =>
  traveller.isDependent ? plan.plan.dependentPricePercentage : 100;

/**
 * The base premium: per traveller, the table's sale price for (region, duration band, age band),
 * times the excess multiplier and the traveller's share, rounded once; the component's sale list
 * price is the sum of the travellers', and its breakdown is allocated back to them.
 */
export function priceBase(
  index: RateIndex,
  plan: PlanIndex,
  rating: Rating,
  travellers: readonly PricingTraveller[],
  excessMultiplier: number,
  rates: Rates,
): Omit<BasePriceResult, 'taxComponents'> | NotPriceable {
  const planCode = plan.plan.planCode;
  const lines: { traveller: PricingTraveller; ageRangeId: number; priceId: number; sale: Minor }[] = [];
  for (const traveller of travellers) {
    const ageBand = findBand(index.ageBands, traveller.age);
    if (!ageBand) return notPriceable(planCode, 'AGE_OUT_OF_BANDS', traveller.guid);
    const price = plan.basePrices.get(basePriceKey(rating.region, rating.durationBandId, ageBand.id));
    if (!price) return notPriceable(planCode, 'NO_BASE_PRICE', traveller.guid);
    const adult = applyFactor(price.salePrice, excessMultiplier);
    const sale = traveller.isDependent ? applyPercentage(adult, travellerShare(plan, traveller)) : adult;
    lines.push({ traveller, ageRangeId: ageBand.id, priceId: price.id, sale });
  }
  const sales = lines.map((l) => l.sale);
  const whole = breakDown(sum(sales), rates);
  const parts = allocateBreakdown(whole, sales);
  const priceDetails = lines.map((line, i) =>
    Object.assign(
      {
        policyHolderGuid: line.traveller.guid,
        age: line.traveller.age,
        ageRangeId: line.ageRangeId,
        netListPriceId: line.priceId,
        saleListPriceId: line.priceId,
      },
      parts[i] ?? breakDown(0, rates),
    ),
  );
  return Object.assign({}, whole, { priceDetails });
}
