import { DOCUMENT_LANGUAGES } from '../documents/labels.js';
import { ADVENTURE_OPTION_TYPE, CANCELLATION_OPTION_TYPE, SPECIFIED_ITEMS_OPTION_TYPE } from '../pricing/options.js';
import { BRAND_LOOK_ITEMS } from './checks-brand-look.js';
import type { Report } from './check-report.js';
import { isoCountries } from './destinations.js';
import type { LoadedBrand, LoadedCatalogue } from './load.js';

/**
 * Every language a brand offers is complete: what a traveller reads in it (plan, option,
 * destination and country names on the policy documents, purchase terms, content items, the PDS)
 * exists in that language, so nothing falls back to the default language unseen.
 */
export function checkTranslations(catalogue: LoadedCatalogue, report: Report): void {
  const offeredBy = new Map<string, string>();
  for (const loaded of catalogue.brands) {
    for (const lang of Object.keys(loaded.brand.value.languages)) if (!offeredBy.has(lang)) offeredBy.set(lang, loaded.brandCode);
    checkBrandTranslations(loaded, report);
  }
  checkDestinationNames(catalogue, offeredBy, report);
}

function checkBrandTranslations(loaded: LoadedBrand, report: Report): void {
  const { brand, plans } = loaded;
  const b = brand.value;
  const others = Object.keys(b.languages).filter((lang) => lang !== b.defaultLanguage);
  for (const lang of Object.keys(b.languages)) {
    if (!(DOCUMENT_LANGUAGES as readonly string[]).includes(lang)) report(brand, ['languages', lang], `policy documents have no wording in '${lang}' (they are printed in ${DOCUMENT_LANGUAGES.join(', ')})`);
  }
  plans.value.plans.forEach((plan, i) => {
    for (const lang of others) if (!plan.translations?.[lang]) report(plans, ['plans', i, 'translations'], `plan ${plan.code} has no name in '${lang}' (translations.${lang}.name), a language of the brand`);
  });
  checkOptionNames(loaded, report);
  b.termsAndConditions.forEach((term, i) => {
    for (const lang of others) if (!term.translations?.[lang]) report(brand, ['termsAndConditions', i, 'translations'], `term ${term.termConditionId} has no translation in '${lang}', a language of the brand`);
  });
  // The brand's look (colour, logo) holds no words: one entry serves every language.
  const look: readonly string[] = Object.values(BRAND_LOOK_ITEMS);
  const defaultTypes = (b.contentItems[b.defaultLanguage] ?? []).map((item) => item.type).filter((type) => !look.includes(type));
  for (const lang of others) {
    const items = b.contentItems[lang];
    if (!items) {
      report(brand, ['contentItems'], `no content items in '${lang}', a language of the brand`);
      continue;
    }
    const types = new Set(items.map((item) => item.type));
    for (const type of defaultTypes) if (!types.has(type)) report(brand, ['contentItems', lang], `content item ${type} is missing in '${lang}'`);
  }
  b.insuranceContracts.forEach((contract, i) => {
    for (const lang of others) {
      if (!contract.pdsDocuments.some((d) => d.lang === lang && !d.countryCode && !d.planIds)) report(brand, ['insuranceContracts', i, 'pdsDocuments'], `no PDS in '${lang}' without country or plan restriction, a language of the brand`);
    }
  });
  for (const lang of Object.keys(b.languages)) {
    const missing = isoCountries([lang]).filter((c) => !c.names[lang]);
    if (missing.length > 0) report(brand, ['languages', lang], `no country names in '${lang}' (world-countries lacks ${missing.length}, e.g. ${missing[0]?.code ?? ''})`);
  }
}

/** Every option type the rate table sells has a name in each language; every name belongs to one it sells. */
function checkOptionNames({ brand, rates }: LoadedBrand, report: Report): void {
  const b = brand.value;
  const languages = Object.keys(b.languages);
  const sold = new Map<string, (string | number)[]>();
  rates.value.plans.forEach((plan, i) => {
    const at = ['plans', i];
    plan.basicOptions.forEach((option, j) => {
      if (!sold.has(option.optionTypeCode)) sold.set(option.optionTypeCode, [...at, 'basicOptions', j, 'optionTypeCode']);
    });
    if (plan.adventureActivities && !sold.has(ADVENTURE_OPTION_TYPE)) sold.set(ADVENTURE_OPTION_TYPE, [...at, 'adventureActivities']);
    if (plan.specifiedItems && !sold.has(SPECIFIED_ITEMS_OPTION_TYPE)) sold.set(SPECIFIED_ITEMS_OPTION_TYPE, [...at, 'specifiedItems']);
    if (plan.cancellation && !sold.has(CANCELLATION_OPTION_TYPE)) sold.set(CANCELLATION_OPTION_TYPE, [...at, 'cancellation']);
  });
  const named = b.optionTypes ?? [];
  for (const [code, path] of sold) {
    if (!named.some((o) => o.code === code)) report(rates, path, `option type ${code} has no names in brand.yaml optionTypes`);
  }
  const seen = new Set<string>();
  named.forEach((option, i) => {
    const at = ['optionTypes', i];
    if (seen.has(option.code)) report(brand, [...at, 'code'], `option type ${option.code} is named twice`);
    seen.add(option.code);
    if (!sold.has(option.code)) report(brand, [...at, 'code'], `option type ${option.code} is not sold in rates.yaml`);
    for (const lang of languages) if (!option.names[lang]) report(brand, [...at, 'names'], `option type ${option.code} has no name in '${lang}', a language of the brand`);
    for (const lang of Object.keys(option.names)) if (!languages.includes(lang)) report(brand, [...at, 'names', lang], `language '${lang}' is not in languages`);
  });
}

/** Regions and named lists (destinations.yaml) have a name in every language some brand offers. */
function checkDestinationNames({ destinations }: LoadedCatalogue, offeredBy: ReadonlyMap<string, string>, report: Report): void {
  for (const [group, entries] of [['regions', destinations.value.regions], ['countryLists', destinations.value.countryLists]] as const) {
    entries.forEach((entry, i) => {
      for (const [lang, brandCode] of offeredBy) {
        if (!entry.names[lang]) report(destinations, [group, i, 'names'], `${entry.code} has no name in '${lang}' (offered by ${brandCode})`);
      }
    });
  }
}
