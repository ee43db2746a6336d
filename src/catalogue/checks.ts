import { isTimeZone } from '../kernel/calendar/zones.js';
import { checkPlanNumberFormat } from '../policies/policy-number.js';
import { reporter, type KnownCodes, type Report } from './check-report.js';
import { checkBrandLook } from './checks-brand-look.js';
import { checkRates } from './checks-rates.js';
import { checkScreening } from './checks-screening.js';
import { checkServicing } from './checks-servicing.js';
import { checkReferrals } from './checks-referrals.js';
import { checkTranslations } from './checks-translations.js';
import { isoCountries, countryRatingRegion } from './destinations.js';
import type { TravelDurationFile } from './file-schemas.js';
import type { CatalogueProblem, LoadedBrand, LoadedCatalogue } from './load.js';

/** Cross-file checks: every reference resolves, ids are unique, limits are ordered. */
export function checkCatalogue(catalogue: LoadedCatalogue): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const report = reporter(problems);
  const known = checkShared(catalogue, report);
  const contractIds = new Map<number, string>();
  const planIds = new Map<number, string>();
  for (const brand of catalogue.brands) {
    checkBrand(brand, known, report, contractIds);
    checkBrandLook(brand, report);
    checkPlans(brand, known, report, planIds);
    checkQuoteConfig(brand, known, report);
    checkRates(brand, new Set(catalogue.destinations.value.ratingRegions), known, report);
    checkServicing(brand, report);
    checkReferrals(brand, known, report);
  }
  checkTranslations(catalogue, report);
  checkScreening(catalogue, report);
  return problems;
}

function checkShared({ destinations, countries }: LoadedCatalogue, report: Report): KnownCodes {
  const file = destinations.value;
  const regions = new Set(file.ratingRegions);
  const rules = file.countryRatingRegions;
  for (const [group, map] of Object.entries<Record<string, string>>(rules)) {
    for (const [key, region] of Object.entries(map)) {
      if (!regions.has(region)) report(destinations, ['countryRatingRegions', group, key], `rating region '${region}' is not in ratingRegions`);
    }
  }
  const iso = isoCountries([]);
  const countryCodes = new Set(iso.map((c) => c.code));
  for (const country of iso) {
    if (!countryRatingRegion(file, country)) report(destinations, ['countryRatingRegions'], `country ${country.code} (${country.subregion || country.region}) maps to no rating region`);
  }
  for (const code of Object.keys(rules.byCountry)) {
    if (!countryCodes.has(code)) report(destinations, ['countryRatingRegions', 'byCountry', code], `'${code}' is not an ISO 3166 alpha-3 country`);
  }
  const all = new Set(countryCodes);
  for (const [group, entries] of [['regions', file.regions], ['countryLists', file.countryLists]] as const) {
    entries.forEach((entry, i) => {
      if (!/^X[A-Z]{2}$/.test(entry.code)) report(destinations, [group, i, 'code'], `'${entry.code}' must be in the user-assigned X.. range`);
      if (all.has(entry.code)) report(destinations, [group, i, 'code'], `code '${entry.code}' is used twice`);
      all.add(entry.code);
      if (!regions.has(entry.ratingRegion)) report(destinations, [group, i, 'ratingRegion'], `rating region '${entry.ratingRegion}' is not in ratingRegions`);
      if (!entry.names.en) report(destinations, [group, i, 'names'], 'an English name (en) is required');
    });
  }
  file.countryLists.forEach((list, i) => {
    list.countryCodes.forEach((code, j) => {
      if (!countryCodes.has(code)) report(destinations, ['countryLists', i, 'countryCodes', j], `'${code}' is not an ISO 3166 alpha-3 country`);
    });
  });
  const provinces = new Map<string, Set<string>>();
  const provinceIds = new Set<number>();
  countries.value.homeCountries.forEach((home, i) => {
    if (!countryCodes.has(home.code)) report(countries, ['homeCountries', i, 'code'], `'${home.code}' is not an ISO 3166 alpha-3 country`);
    if (provinces.has(home.code)) report(countries, ['homeCountries', i, 'code'], `home country '${home.code}' is listed twice`);
    if (!isTimeZone(home.timeZone)) report(countries, ['homeCountries', i, 'timeZone'], `'${home.timeZone}' is not an IANA time zone`);
    const codes = new Set<string>();
    (home.provinces ?? []).forEach((province, j) => {
      if (codes.has(province.code)) report(countries, ['homeCountries', i, 'provinces', j, 'code'], `province '${province.code}' is listed twice`);
      codes.add(province.code);
      if (provinceIds.has(province.id)) report(countries, ['homeCountries', i, 'provinces', j, 'id'], `province id ${String(province.id)} is used twice`);
      provinceIds.add(province.id);
      if (!isTimeZone(province.timeZone)) report(countries, ['homeCountries', i, 'provinces', j, 'timeZone'], `'${province.timeZone}' is not an IANA time zone`);
    });
    provinces.set(home.code, codes);
  });
  return { countries: countryCodes, destinations: all, provinces, homeCountries: new Set(provinces.keys()) };
}

/** The insurer a brand's partner tax invoices name (statements/tax-invoice.ts): required in its default language. */
export const INSURER_ITEMS = { name: 'INSURERNAME', taxNumber: 'INSURERTAXNUMBER' } as const;

function checkBrand(loaded: LoadedBrand, known: KnownCodes, report: Report, contractIds: Map<number, string>): void {
  const { brand } = loaded;
  const b = brand.value;
  if (b.brandCode !== loaded.brandCode) report(brand, ['brandCode'], `must be '${loaded.brandCode}' (the folder name)`);
  const languages = new Set(Object.keys(b.languages));
  if (!languages.has(b.defaultLanguage)) report(brand, ['defaultLanguage'], `'${b.defaultLanguage}' is not in languages`);
  if (!(b.defaultLanguage in b.contentItems)) report(brand, ['contentItems'], `content in the default language '${b.defaultLanguage}' is required`);
  for (const type of Object.values(INSURER_ITEMS)) {
    if (!(b.contentItems[b.defaultLanguage] ?? []).some((item) => item.type === type && item.content.trim() !== '')) report(brand, ['contentItems', b.defaultLanguage], `content item ${type} (the insurer on partner tax invoices) is required in the default language`);
  }
  for (const lang of Object.keys(b.contentItems)) if (!languages.has(lang)) report(brand, ['contentItems', lang], `language '${lang}' is not in languages`);
  b.homeCountryCodes.forEach((code, i) => {
    if (!known.homeCountries.has(code)) report(brand, ['homeCountryCodes', i], `'${code}' is not a home country in shared/countries.yaml`);
  });
  const groups = new Set(b.partnerGroups.map((g) => g.id));
  const terms = new Set<number>();
  b.termsAndConditions.forEach((term, i) => {
    const at = ['termsAndConditions', i];
    if (terms.has(term.termConditionId)) report(brand, [...at, 'termConditionId'], `termConditionId ${term.termConditionId} is used twice`);
    terms.add(term.termConditionId);
    for (const replacement of term.tokenReplacements) {
      if (!term.customerDeclarationText.includes(replacement.token)) report(brand, [...at, 'tokenReplacements'], `token '${replacement.token}' does not occur in customerDeclarationText`);
    }
    for (const [lang, translation] of Object.entries(term.translations ?? {})) {
      if (!languages.has(lang)) report(brand, [...at, 'translations', lang], `language '${lang}' is not in languages`);
      for (const replacement of term.tokenReplacements) {
        if (!translation.customerDeclarationText.includes(replacement.token)) report(brand, [...at, 'translations', lang], `token '${replacement.token}' is missing from the translation`);
      }
    }
    (term.partnerGroupIds ?? []).forEach((id, j) => {
      if (!groups.has(id)) report(brand, [...at, 'partnerGroupIds', j], `partner group ${id} is not in partnerGroups`);
    });
    (term.destinationCountryCodes ?? []).forEach((code, j) => {
      if (!known.destinations.has(code)) report(brand, [...at, 'destinationCountryCodes', j], `unknown destination code '${code}'`);
    });
    if (term.countryCode && !b.homeCountryCodes.includes(term.countryCode)) report(brand, [...at, 'countryCode'], `'${term.countryCode}' is not a home country of the brand`);
    if (term.provinceCode && !known.provinces.get(term.countryCode ?? '')?.has(term.provinceCode)) report(brand, [...at, 'provinceCode'], `unknown province '${term.provinceCode}' of '${term.countryCode ?? '(no countryCode)'}'`);
  });
  b.insuranceContracts.forEach((contract, i) => {
    const at = ['insuranceContracts', i];
    const owner = contractIds.get(contract.insuranceContractId);
    if (owner) report(brand, [...at, 'insuranceContractId'], `insuranceContractId ${contract.insuranceContractId} is already used by ${owner}`);
    contractIds.set(contract.insuranceContractId, loaded.brandCode);
    const keys = new Set<string>();
    contract.pdsDocuments.forEach((doc, j) => {
      if (keys.has(doc.key)) report(brand, [...at, 'pdsDocuments', j, 'key'], `key '${doc.key}' is used twice in this contract`);
      keys.add(doc.key);
      if (!languages.has(doc.lang)) report(brand, [...at, 'pdsDocuments', j, 'lang'], `language '${doc.lang}' is not in languages`);
      if (doc.countryCode && !b.homeCountryCodes.includes(doc.countryCode)) report(brand, [...at, 'pdsDocuments', j, 'countryCode'], `'${doc.countryCode}' is not a home country of the brand`);
      if (doc.provinceCode && !known.provinces.get(doc.countryCode ?? '')?.has(doc.provinceCode)) report(brand, [...at, 'pdsDocuments', j, 'provinceCode'], `unknown province '${doc.provinceCode}'`);
    });
    if (!contract.pdsDocuments.some((d) => d.lang === b.defaultLanguage && !d.countryCode && !d.planIds)) {
      report(brand, [...at, 'pdsDocuments'], `a PDS in the default language '${b.defaultLanguage}' without country or plan restriction is required`);
    }
  });
}

function checkPlans(loaded: LoadedBrand, known: KnownCodes, report: Report, planIds: Map<number, string>): void {
  const { plans, brand } = loaded;
  const b = brand.value;
  const contracts = new Map(b.insuranceContracts.map((c) => [c.insuranceContractId, c]));
  const terms = new Set(b.termsAndConditions.map((t) => t.termConditionId));
  const codes = new Set<string>();
  plans.value.plans.forEach((plan, i) => {
    const at = ['plans', i];
    if (codes.has(plan.code)) report(plans, [...at, 'code'], `plan code '${plan.code}' is used twice`);
    codes.add(plan.code);
    try {
      checkPlanNumberFormat(plan.policyNumberFormat);
    } catch (error) {
      report(plans, [...at, 'policyNumberFormat'], `invalid format: ${(error as Error).message}`);
    }
    plan.homeCountryCodes.forEach((code, j) => {
      if (!b.homeCountryCodes.includes(code)) report(plans, [...at, 'homeCountryCodes', j], `'${code}' is not a home country of the brand`);
    });
    if (plan.overrideJurisdictionCountryCode && !known.countries.has(plan.overrideJurisdictionCountryCode)) report(plans, [...at, 'overrideJurisdictionCountryCode'], 'unknown country');
    for (const lang of Object.keys(plan.translations ?? {})) if (!(lang in b.languages)) report(plans, [...at, 'translations', lang], `language '${lang}' is not in the brand's languages`);
    const sorted = [...plan.versions].sort((x, y) => x.effectiveFromDate.localeCompare(y.effectiveFromDate));
    sorted.forEach((version, k) => {
      const next = sorted[k + 1];
      if (next && (!version.effectiveToDate || version.effectiveToDate >= next.effectiveFromDate)) {
        report(plans, [...at, 'versions'], `versions ${version.planId} and ${next.planId} overlap`);
      }
    });
    plan.versions.forEach((version, j) => {
      const vat = [...at, 'versions', j];
      const owner = planIds.get(version.planId);
      if (owner) report(plans, [...vat, 'planId'], `planId ${version.planId} is already used by ${owner}`);
      planIds.set(version.planId, `${loaded.brandCode}/${plan.code}`);
      if (Number.isNaN(Date.parse(version.effectiveFromDate))) report(plans, [...vat, 'effectiveFromDate'], 'not a calendar date');
      if (version.effectiveToDate && (Number.isNaN(Date.parse(version.effectiveToDate)) || version.effectiveToDate < version.effectiveFromDate)) {
        report(plans, [...vat, 'effectiveToDate'], 'not a calendar date on or after effectiveFromDate');
      }
      if (!contracts.has(version.insuranceContractId)) report(plans, [...vat, 'insuranceContractId'], `contract ${version.insuranceContractId} is not in brand.yaml`);
      version.termConditionIds.forEach((id, k) => {
        if (!terms.has(id)) report(plans, [...vat, 'termConditionIds', k], `term ${id} is not in brand.yaml termsAndConditions`);
      });
    });
  });
  b.insuranceContracts.forEach((contract, i) => {
    contract.pdsDocuments.forEach((doc, j) => {
      (doc.planIds ?? []).forEach((id, k) => {
        const version = plans.value.plans.flatMap((p) => p.versions).find((v) => v.planId === id);
        if (version?.insuranceContractId !== contract.insuranceContractId) {
          report(brand, ['insuranceContracts', i, 'pdsDocuments', j, 'planIds', k], `plan ${id} is not a plan version of this contract`);
        }
      });
    });
  });
}

function checkQuoteConfig({ quoteConfig, brand }: LoadedBrand, known: KnownCodes, report: Report): void {
  const checkDuration = (d: TravelDurationFile | undefined, at: (string | number)[]) => {
    if (!d) return;
    if (d.minTravelDurationDays > d.maxTravelDurationDays) report(quoteConfig, at, 'minTravelDurationDays exceeds maxTravelDurationDays');
    if (d.defaultTravelDurationDays < d.minTravelDurationDays || d.defaultTravelDurationDays > d.maxTravelDurationDays) report(quoteConfig, at, 'defaultTravelDurationDays is outside min..max');
    if (d.minAdvancePurchaseDays > d.maxAdvancePurchaseDays) report(quoteConfig, at, 'minAdvancePurchaseDays exceeds maxAdvancePurchaseDays');
  };
  const homes = quoteConfig.value.homeCountries.map((h) => h.homeCountryCode);
  for (const code of brand.value.homeCountryCodes) if (!homes.includes(code)) report(quoteConfig, ['homeCountries'], `home country '${code}' of brand.yaml has no configuration`);
  for (const [type, settings] of Object.entries(quoteConfig.value.quoteTypes)) {
    if (settings.minTravellers > settings.maxTravellers) report(quoteConfig, ['quoteTypes', type, 'minTravellers'], 'exceeds maxTravellers');
    if (settings.minDependents > settings.maxDependents) report(quoteConfig, ['quoteTypes', type, 'minDependents'], 'exceeds maxDependents');
    checkDuration(settings.travelDuration, ['quoteTypes', type, 'travelDuration']);
  }
  quoteConfig.value.homeCountries.forEach((home, i) => {
    const at = ['homeCountries', i];
    if (!brand.value.homeCountryCodes.includes(home.homeCountryCode)) report(quoteConfig, [...at, 'homeCountryCode'], `'${home.homeCountryCode}' is not a home country in brand.yaml`);
    const age = home.policyHolderAge;
    if (age.minTravellerAge > age.maxTravellerAge) report(quoteConfig, [...at, 'policyHolderAge', 'minTravellerAge'], 'exceeds maxTravellerAge');
    if (age.minDependentAge > age.maxDependentAge) report(quoteConfig, [...at, 'policyHolderAge', 'minDependentAge'], 'exceeds maxDependentAge');
    if (home.isProvinceRequiredForQuote && !known.provinces.get(home.homeCountryCode)?.size) report(quoteConfig, [...at, 'isProvinceRequiredForQuote'], 'the home country has no provinces in shared/countries.yaml');
    home.unsupportedHomeProvinceCodes.forEach((code, j) => {
      if (!known.provinces.get(home.homeCountryCode)?.has(code)) report(quoteConfig, [...at, 'unsupportedHomeProvinceCodes', j], `unknown province '${code}'`);
    });
    for (const [list, codes] of Object.entries(home.restrictions)) {
      codes.forEach((code, j) => {
        if (!known.countries.has(code)) report(quoteConfig, [...at, 'restrictions', list, j], `'${code}' is not an ISO 3166 alpha-3 country`);
      });
    }
    for (const [type, duration] of Object.entries(home.travelDuration ?? {})) checkDuration(duration, [...at, 'travelDuration', type]);
  });
}
