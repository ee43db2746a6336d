import { PdsNotFound, UnknownInsuranceContract, UnknownPlanId } from './errors.js';
import type { PdsDocumentFile } from './file-schemas.js';
import type { BrandCatalogue, PlanVersion, QuoteType } from './model.js';
import type { BrandContentResponse, FeaturesResponse, PdsSummaryResponse, PlanResponse, QuoteConfigResponse } from './schemas.js';

/** Builds the spec-shaped bodies of the product endpoints from catalogue domain data. */

/** A requested language reduced to one the brand has: `es-MX` → `es`; unknown → the default. */
export function resolveLanguage(brand: BrandCatalogue, lang: string | undefined): string {
  const base = lang?.slice(0, 2).toLowerCase();
  return base && base in brand.brand.languages ? base : brand.brand.defaultLanguage;
}

export function quoteConfigBody(brand: BrandCatalogue, quoteType: QuoteType): QuoteConfigResponse {
  const config = brand.quoteConfig;
  const settings = config.quoteTypes[quoteType];
  return {
    quotePanelTypeId: settings.quotePanelTypeId,
    expirySeconds: config.expirySeconds,
    minTravellers: settings.minTravellers,
    maxTravellers: settings.maxTravellers,
    minDependents: settings.minDependents,
    maxDependents: settings.maxDependents,
    maxPolicyHolders: settings.maxPolicyHolders,
    travelDurationConfigs: config.homeCountries.map((h) => ({ homeCountryCode: h.homeCountryCode, ...(h.travelDuration?.[quoteType] ?? settings.travelDuration) })),
    policyHolderAgeConfigs: config.homeCountries.map((h) => ({ homeCountryCode: h.homeCountryCode, ...h.policyHolderAge })),
    travelRestrictionConfigs: config.homeCountries.map((h) => ({
      homeCountryCode: h.homeCountryCode,
      isHandledByLegacy: false,
      isProvinceRequiredForQuote: h.isProvinceRequiredForQuote,
      domesticTravelCoverTypeCode: h.domesticTravelCoverTypeCode,
      noProductCountryCodes: h.restrictions.noProductCountryCodes,
      unsafeCountryCodes: h.restrictions.unsafeCountryCodes,
      sanctionedCountryCodes: h.restrictions.sanctionedCountryCodes,
      unsupportedHomeProvinceCodes: h.unsupportedHomeProvinceCodes,
    })),
    maxTripValuePerTraveller: settings.maxTripValuePerTraveller,
  };
}

/** Partner groups a partner code belongs to (bounded by the catalogue, so usable as a cache key). */
export function partnerGroupsOf(brand: BrandCatalogue, partnerCode: string | undefined): number[] {
  if (!partnerCode) return [];
  return brand.brand.partnerGroups.filter((g) => g.partnerCodes.includes(partnerCode)).map((g) => g.id);
}

export function planBody(brand: BrandCatalogue, plan: PlanVersion, lang: string, partnerGroups: readonly number[]): PlanResponse {
  const translations: Record<string, string> = {};
  for (const [code, name] of Object.entries(brand.brand.languages)) {
    if (code === brand.brand.defaultLanguage || code in plan.translations) translations[code] = name;
  }
  const terms = plan.terms.filter((t) => !t.partnerGroupIds || t.partnerGroupIds.some((id) => partnerGroups.includes(id)));
  return {
    expirySeconds: brand.brand.expirySeconds,
    planId: plan.planId,
    code: plan.code,
    name: plan.translations[lang]?.name ?? plan.name,
    insuranceContractId: plan.insuranceContractId,
    policyNumberPrefix: plan.policyNumberPrefix,
    policyNumberFormat: plan.policyNumberFormat,
    underwriterCode: plan.underwriterCode,
    currencyCode: plan.currencyCode,
    homeCountryCodes: [...plan.homeCountryCodes],
    pdsUrl: `v2/${brand.brandCode}/insuranceContract/${plan.insuranceContractId}/pds?planId=${plan.planId}&lang=${lang}`,
    purchaseTermsAndConditions: terms.map((t) => {
      const translated = t.translations?.[lang];
      return {
        termConditionId: t.termConditionId,
        customerDeclarationText: translated?.customerDeclarationText ?? t.customerDeclarationText,
        tokenReplacements: t.tokenReplacements.map((r) => ({ ...r, label: translated?.labels?.[r.token] ?? r.label })),
        ...(t.countryCode ? { countryCode: t.countryCode } : {}),
        ...(t.provinceCode ? { provinceCode: t.provinceCode } : {}),
        policyActionTypeId: t.policyActionTypeId,
        ...(t.destinationCountryCodes ? { destinationCountryCodes: t.destinationCountryCodes } : {}),
        ...(t.partnerGroupIds ? { partnerGroupIds: t.partnerGroupIds } : {}),
      };
    }),
    ...(plan.overrideJurisdictionCountryCode ? { overrideJurisdictionCountryCode: plan.overrideJurisdictionCountryCode } : {}),
    ...(plan.overrideJurisdictionProvinceCode ? { overrideJurisdictionProvinceCode: plan.overrideJurisdictionProvinceCode } : {}),
    effectiveFromDate: plan.effectiveFromDate,
    ...(plan.effectiveToDate ? { effectiveToDate: plan.effectiveToDate } : {}),
    availableTranslations: translations,
    quoteType: plan.quoteType,
    brandCode: brand.brandCode,
  };
}

export function brandContentBody(brand: BrandCatalogue, lang: string): BrandContentResponse {
  const b = brand.brand;
  // Items missing in the requested language fall back to the default language's.
  const fallback = b.contentItems[b.defaultLanguage] ?? [];
  const chosen = b.contentItems[lang] ?? [];
  const items = fallback.map((item) => chosen.find((c) => c.type === item.type) ?? item);
  for (const item of chosen) if (!items.some((i) => i.type === item.type)) items.push(item);
  const translations: Record<string, string> = {};
  for (const code of Object.keys(b.contentItems)) translations[code] = b.languages[code] ?? code;
  return {
    expirySeconds: b.expirySeconds,
    code: brand.brandCode,
    name: b.name,
    ...(b.effectiveToDate ? { effectiveToDate: b.effectiveToDate } : {}),
    contentItems: items.map((i) => ({ type: i.type, content: i.content })),
    availableTranslations: translations,
  };
}

export function contractOf(brand: BrandCatalogue, insuranceContractId: number): BrandCatalogue['brand']['insuranceContracts'][number] {
  const contract = brand.brand.insuranceContracts.find((c) => c.insuranceContractId === insuranceContractId);
  if (!contract) throw new UnknownInsuranceContract(insuranceContractId);
  return contract;
}

export function featuresBody(brand: BrandCatalogue, insuranceContractId: number): FeaturesResponse {
  const contract = contractOf(brand, insuranceContractId);
  return { expirySeconds: brand.brand.expirySeconds, features: contract.features.map((f) => ({ code: f.code, name: f.name })) };
}

export interface PdsSelection {
  readonly lang?: string;
  readonly countryCode?: string;
  readonly provinceCode?: string;
  readonly planId?: number;
}

/**
 * The PDS document of a contract for a selection: documents whose restrictions (country,
 * province, plans) all match, in the requested language else the default one; the most specific
 * wins (plan, then province, then country).
 */
export function selectPds(brand: BrandCatalogue, insuranceContractId: number, selection: PdsSelection): PdsDocumentFile {
  const contract = contractOf(brand, insuranceContractId);
  if (selection.planId !== undefined && !brand.plans.some((p) => p.planId === selection.planId && p.insuranceContractId === insuranceContractId)) {
    throw new UnknownPlanId(selection.planId);
  }
  const matches = (doc: PdsDocumentFile) =>
    (!doc.countryCode || doc.countryCode === selection.countryCode) &&
    (!doc.provinceCode || doc.provinceCode === selection.provinceCode) &&
    (!doc.planIds || (selection.planId !== undefined && doc.planIds.includes(selection.planId)));
  const specificity = (doc: PdsDocumentFile) => (doc.planIds ? 4 : 0) + (doc.provinceCode ? 2 : 0) + (doc.countryCode ? 1 : 0);
  const lang = resolveLanguage(brand, selection.lang);
  for (const wanted of [lang, brand.brand.defaultLanguage]) {
    const best = contract.pdsDocuments.filter((d) => d.lang === wanted && matches(d)).sort((a, b) => specificity(b) - specificity(a))[0];
    if (best) return best;
  }
  throw new PdsNotFound(insuranceContractId);
}

export function pdsSummaryBody(doc: PdsDocumentFile): PdsSummaryResponse {
  return { name: doc.name, filename: doc.filename, contentTypeCode: 'PDF', contentLanguage: [doc.lang] };
}
