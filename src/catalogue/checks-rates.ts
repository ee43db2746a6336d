import type { RateTable } from '../pricing/rate-tables.js';
import type { KnownCodes, Report } from './check-report.js';
import type { LoadedBrand } from './load.js';

function ordered(bands: readonly { from: number; to: number }[]): string | undefined {
  const sorted = [...bands].sort((a, b) => a.from - b.from);
  for (let i = 0; i < sorted.length; i += 1) {
    const band = sorted[i];
    const next = sorted[i + 1];
    if (band && band.from > band.to) return `band ${band.from}..${band.to} is reversed`;
    if (band && next && next.from !== band.to + 1) return `bands ${band.from}..${band.to} and ${next.from}..${next.to} leave a gap or overlap`;
  }
  return undefined;
}

function duplicates(values: readonly (string | number)[]): (string | number)[] {
  const seen = new Set<string | number>();
  return values.filter((v) => (seen.has(v) ? true : (seen.add(v), false)));
}

/**
 * Rate table checks: references resolve, bands are contiguous, each plan prices a full grid,
 * and a price never falls as the duration band or the age band rises.
 */
export function checkRates(loaded: LoadedBrand, destinationRegions: ReadonlySet<string>, known: KnownCodes, report: Report): void {
  const { rates } = loaded;
  const table: RateTable = rates.value;
  const brand = loaded.brand.value;
  if (table.brandCode !== loaded.brandCode) report(rates, ['brandCode'], `must be '${loaded.brandCode}'`);
  if (table.currencyCode !== brand.currencyCode) report(rates, ['currencyCode'], `must be the brand's currency '${brand.currencyCode}'`);
  const regions = new Map(table.ratingRegions.map((r) => [r.code, r.rank]));
  for (const region of destinationRegions) if (!regions.has(region)) report(rates, ['ratingRegions'], `rating region '${region}' (used by destinations) has no entry`);
  table.ratingRegions.forEach((r, i) => {
    if (!destinationRegions.has(r.code)) report(rates, ['ratingRegions', i, 'code'], `'${r.code}' is not a rating region of shared/destinations.yaml`);
  });
  for (const rank of duplicates(table.ratingRegions.map((r) => r.rank))) report(rates, ['ratingRegions'], `rank ${rank} is used twice`);
  const durationProblem = ordered(table.durationBands.map((b) => ({ from: b.fromDays, to: b.toDays })));
  if (durationProblem) report(rates, ['durationBands'], durationProblem);
  const ageProblem = ordered(table.ageBands.map((b) => ({ from: b.fromAge, to: b.toAge })));
  if (ageProblem) report(rates, ['ageBands'], ageProblem);
  const durations = [...table.durationBands].sort((a, b) => a.fromDays - b.fromDays).map((b) => b.id);
  const ages = [...table.ageBands].sort((a, b) => a.fromAge - b.fromAge).map((b) => b.id);
  for (const id of duplicates(durations)) report(rates, ['durationBands'], `band id ${id} is used twice`);
  for (const id of duplicates(ages)) report(rates, ['ageBands'], `band id ${id} is used twice`);

  const planCodes = new Set(loadedPlanCodes(loaded));
  const priceIds: number[] = [];
  const optionIds: number[] = [];
  table.plans.forEach((plan, i) => {
    const at = ['plans', i];
    if (!planCodes.has(plan.planCode)) report(rates, [...at, 'planCode'], `plan code '${plan.planCode}' is not in plans.yaml`);
    if (!plan.excessChoices.some((c) => c.excess === plan.standardExcess && c.priceMultiplier === 1)) {
      report(rates, [...at, 'excessChoices'], `the standard excess ${plan.standardExcess} needs a choice with priceMultiplier 1`);
    }
    const grid = new Map<string, number>();
    const rows = new Map<string, number>();
    plan.basePrices.forEach((price, j) => {
      priceIds.push(price.id);
      const pat = [...at, 'basePrices', j];
      if (!regions.has(price.region)) report(rates, [...pat, 'region'], `unknown rating region '${price.region}'`);
      if (!durations.includes(price.durationBandId)) report(rates, [...pat, 'durationBandId'], `unknown duration band ${price.durationBandId}`);
      if (!ages.includes(price.ageBandId)) report(rates, [...pat, 'ageBandId'], `unknown age band ${price.ageBandId}`);
      const key = `${price.region}/${price.durationBandId}/${price.ageBandId}`;
      if (grid.has(key)) report(rates, pat, `a second price for region ${price.region}, duration band ${price.durationBandId}, age band ${price.ageBandId}`);
      grid.set(key, price.salePrice);
      rows.set(key, j);
    });
    const usedDurations = durations.filter((d) => plan.basePrices.some((p) => p.durationBandId === d));
    for (const region of regions.keys()) {
      for (const [d, duration] of usedDurations.entries()) {
        for (const [a, age] of ages.entries()) {
          const price = grid.get(`${region}/${duration}/${age}`);
          if (price === undefined) {
            report(rates, [...at, 'basePrices'], `no price for region ${region}, duration band ${duration}, age band ${age}`);
            continue;
          }
          const shorter = d > 0 ? grid.get(`${region}/${usedDurations[d - 1] ?? 0}/${age}`) : undefined;
          const younger = a > 0 ? grid.get(`${region}/${duration}/${ages[a - 1] ?? 0}`) : undefined;
          const row = [...at, 'basePrices', rows.get(`${region}/${duration}/${age}`) ?? 0];
          if (shorter !== undefined && price < shorter) report(rates, row, `price falls as duration rises (region ${region}, band ${duration}, age band ${age})`);
          if (younger !== undefined && price < younger) report(rates, row, `price falls as age rises (region ${region}, band ${duration}, age band ${age})`);
        }
      }
    }
    optionIds.push(...plan.basicOptions.map((o) => o.optionId));
    for (const code of duplicates(plan.basicOptions.map((o) => o.optionTypeCode))) report(rates, [...at, 'basicOptions'], `option type ${code} is listed twice`);
    if (plan.adventureActivities) {
      optionIds.push(plan.adventureActivities.optionId);
      for (const rank of duplicates(plan.adventureActivities.levels.map((l) => l.rank))) report(rates, [...at, 'adventureActivities'], `level rank ${rank} is used twice`);
    }
    if (plan.specifiedItems) {
      optionIds.push(plan.specifiedItems.optionId);
      const s = plan.specifiedItems;
      if (s.minItemValue > s.maxItemValuePerUnit || s.maxItemValuePerUnit > s.maxItemValuePerPolicy) report(rates, [...at, 'specifiedItems'], 'needs minItemValue ≤ maxItemValuePerUnit ≤ maxItemValuePerPolicy');
    }
    if (plan.cancellation) {
      optionIds.push(plan.cancellation.optionId);
      const c = plan.cancellation;
      if (!c.limits.some((l) => l.limit === c.defaultLimit)) report(rates, [...at, 'cancellation', 'defaultLimit'], 'is not one of the limits');
      const sorted = [...c.limits].sort((x, y) => x.limit - y.limit);
      if (sorted.some((l, k) => k > 0 && l.salePrice < (sorted[k - 1]?.salePrice ?? 0))) report(rates, [...at, 'cancellation', 'limits'], 'a higher limit must not cost less');
    }
  });
  for (const code of planCodes) if (!table.plans.some((p) => p.planCode === code)) report(rates, ['plans'], `plan '${code}' of plans.yaml has no rates`);
  for (const id of duplicates(priceIds)) report(rates, ['plans'], `base price id ${id} is used twice`);
  for (const id of duplicates(optionIds)) report(rates, ['plans'], `option id ${id} is used twice`);
  table.taxes.forEach((tax, i) => {
    if (!brand.homeCountryCodes.includes(tax.homeCountryCode)) report(rates, ['taxes', i, 'homeCountryCode'], `'${tax.homeCountryCode}' is not a home country of the brand`);
    if (tax.provinceCode && !known.provinces.get(tax.homeCountryCode)?.has(tax.provinceCode)) report(rates, ['taxes', i, 'provinceCode'], `unknown province '${tax.provinceCode}'`);
  });
  const partners = new Set(brand.partnerGroups.flatMap((g) => g.partnerCodes));
  for (const code of duplicates(table.campaigns.map((c) => c.code))) report(rates, ['campaigns'], `campaign code ${code} is used twice`);
  table.campaigns.forEach((campaign, i) => {
    if (campaign.validFrom > campaign.validTo) report(rates, ['campaigns', i, 'validTo'], 'is before validFrom');
    (campaign.planCodes ?? []).forEach((code, j) => {
      if (!planCodes.has(code)) report(rates, ['campaigns', i, 'planCodes', j], `plan code '${code}' is not in plans.yaml`);
    });
  });
  table.partnerDiscounts.forEach((discount, i) => {
    if (partners.size > 0 && !partners.has(discount.partnerCode)) report(rates, ['partnerDiscounts', i, 'partnerCode'], `partner '${discount.partnerCode}' is in no partner group of brand.yaml`);
  });
}

function loadedPlanCodes(loaded: LoadedBrand): string[] {
  return loaded.plans.value.plans.map((p) => p.code);
}
