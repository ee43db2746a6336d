import { checkCatalogue } from './checks.js';
import { compileDestinations } from './destinations.js';
import { loadCatalogue, type CatalogueProblem, type LoadedBrand, type LoadedCatalogue } from './load.js';
import type { BrandCatalogue, CompiledCatalogue, PlanVersion } from './model.js';
import { compileBrandScreening, compileScreening } from './screening.js';
import { compileServicing } from './servicing.js';
import { compileBrandReferrals } from './referrals.js';

function compilePlans({ plans, brand }: LoadedBrand): PlanVersion[] {
  const terms = new Map(brand.value.termsAndConditions.map((t) => [t.termConditionId, t]));
  const binders = new Map(brand.value.insuranceContracts.map((c) => [c.insuranceContractId, c.binderId]));
  return plans.value.plans.flatMap((plan) =>
    plan.versions.map((version) => ({
      planId: version.planId,
      code: plan.code,
      quoteType: plan.quoteType,
      name: plan.name,
      translations: plan.translations ?? {},
      insuranceContractId: version.insuranceContractId,
      policyNumberPrefix: plan.policyNumberPrefix,
      policyNumberFormat: plan.policyNumberFormat,
      underwriterCode: plan.underwriterCode,
      currencyCode: brand.value.currencyCode,
      currencyId: brand.value.currencyId,
      displayGroupId: plan.displayGroupId,
      binderId: binders.get(version.insuranceContractId) ?? 0,
      homeCountryCodes: plan.homeCountryCodes,
      ...(plan.overrideJurisdictionCountryCode ? { overrideJurisdictionCountryCode: plan.overrideJurisdictionCountryCode } : {}),
      ...(plan.overrideJurisdictionProvinceCode ? { overrideJurisdictionProvinceCode: plan.overrideJurisdictionProvinceCode } : {}),
      effectiveFromDate: version.effectiveFromDate,
      ...(version.effectiveToDate ? { effectiveToDate: version.effectiveToDate } : {}),
      terms: version.termConditionIds.flatMap((id) => terms.get(id) ?? []),
    })),
  );
}

/** The compiled catalogue of loaded, checked files (destinations expanded from ISO data). */
export function compileCatalogue(loaded: LoadedCatalogue): CompiledCatalogue {
  const languages = [...new Set(loaded.brands.flatMap((b) => Object.keys(b.brand.value.languages)))].sort();
  const brands: BrandCatalogue[] = loaded.brands.map((b) => ({
    brandCode: b.brandCode,
    brand: b.brand.value,
    quoteConfig: b.quoteConfig.value,
    plans: compilePlans(b),
    rates: b.rates.value,
    servicing: compileServicing(b.servicing.value, b.brand.value.currencyCode),
    screening: compileBrandScreening(b.screening.value, b.brand.value.currencyCode),
    referrals: compileBrandReferrals(b.referrals.value, b.brand.value.currencyCode),
  }));
  return {
    destinations: compileDestinations(loaded.destinations.value, languages),
    homeCountries: loaded.countries.value.homeCountries.map((h) => ({ code: h.code, timeZone: h.timeZone, provinces: h.provinces ?? [] })),
    brands,
    screening: compileScreening(loaded.screening.value),
  };
}

/** Reads, schema-checks and cross-checks a catalogue folder; compiles it when nothing is wrong. */
export async function validateCatalogue(dir: string): Promise<{ catalogue?: CompiledCatalogue; problems: CatalogueProblem[] }> {
  const { catalogue, problems } = await loadCatalogue(dir);
  if (!catalogue) return { problems };
  const crossProblems = checkCatalogue(catalogue);
  if (crossProblems.length > 0) return { problems: crossProblems };
  return { catalogue: compileCatalogue(catalogue), problems: [] };
}
