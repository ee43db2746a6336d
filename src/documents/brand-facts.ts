import type { BrandCatalogue } from '../catalogue/model.js';
import type { CertificateFacts } from './certificate.js';
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
