import { alpha3Of } from '../catalogue/destinations.js';
import type { BrandCatalogue } from '../catalogue/model.js';
import type { CatalogueSnapshot } from '../catalogue/reader.js';
import type { DetailRecord, PolicyRecord } from '../policies/model.js';
import type { CertificateFacts, DocumentNames } from './certificate.js';
import { isDocumentLanguage, type DocumentLanguage } from './labels.js';

/**
 * The languages a brand's documents are rendered in: the brand's default first, then every other
 * language it offers (brand.yaml `languages`, the contract's availableTranslations) that has labels.
 * A policy records no language of its own, so each transaction gets one document per language.
 */
export function documentLanguagesOf(brand: BrandCatalogue): DocumentLanguage[] {
  const offered = [brand.brand.defaultLanguage, ...Object.keys(brand.brand.languages)];
  return [...new Set(offered)].filter(isDocumentLanguage);
}

/** Brand name and content items (RSPORTALURL, EMERGENCYPHONE, CLAIMSURL, EFOOTER…) in `language`, default language as fallback. */
export function brandFactsOf(brand: BrandCatalogue, language: DocumentLanguage): CertificateFacts['brand'] {
  const items = brand.brand.contentItems;
  const content: Record<string, string> = {};
  for (const item of items[brand.brand.defaultLanguage] ?? []) content[item.type] = item.content;
  for (const item of items[language] ?? []) content[item.type] = item.content;
  return { code: brand.brandCode, name: brand.brand.name, content };
}

/**
 * The catalogue's names of what a transaction shows, in `language` (catalogue validate requires
 * each for every language a brand offers; a name the catalogue lost since falls back to the
 * default language, then to what the policy recorded).
 */
export function documentNamesOf(
  snapshot: CatalogueSnapshot,
  brand: BrandCatalogue,
  policy: PolicyRecord,
  detail: DetailRecord,
  /** Every destination the document names (its transaction's and, for an amendment, the previous one's). */
  destinationCodes: readonly string[],
  language: DocumentLanguage,
): DocumentNames {
  const fallback = brand.brand.defaultLanguage;
  const plan = brand.plans.find((p) => p.planId === policy.plan.planId);
  const planName =
    plan?.translations[language]?.name ?? plan?.name ?? (policy.plan.shortDescription || policy.plan.code);
  const options: Record<string, string> = {};
  for (const option of brand.brand.optionTypes ?? []) {
    const name = option.names[language] ?? option.names[fallback];
    if (name) options[option.code] = name;
  }
  const nameOf = (code: string) => {
    const names = snapshot.destinations.get(code.toUpperCase())?.names;
    return names?.[language] ?? names?.[fallback] ?? names?.en;
  };
  const destinations: Record<string, string> = {};
  for (const code of destinationCodes) {
    const recorded = policy.destinations.names[policy.destinations.codes.indexOf(code)];
    destinations[code] = nameOf(code) ?? recorded ?? code;
  }
  const home = alpha3Of(detail.address.countryCode);
  return {
    plan: planName,
    options,
    destinations,
    homeCountry: (home && nameOf(home)) ?? detail.address.countryName,
  };
}

/** The PDS the plan is sold under, in `language` when the contract has it: its name and file name. */
export function pdsReferenceOf(brand: BrandCatalogue, planId: number, language: DocumentLanguage): string {
  const plan = brand.plans.find((p) => p.planId === planId);
  const contract = brand.brand.insuranceContracts.find((c) => c.insuranceContractId === plan?.insuranceContractId);
  if (!contract) return brand.brand.name;
  const general = contract.pdsDocuments.filter(
    (d) => d.countryCode === undefined && (!d.planIds || d.planIds.includes(planId)),
  );
  const doc = general.find((d) => d.lang === language) ?? general[0] ?? contract.pdsDocuments[0];
  return doc ? `${doc.name} (${doc.filename})` : contract.name;
}
