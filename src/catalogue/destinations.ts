import worldCountries, { type Country } from 'world-countries';
import type { DestinationsFile } from './file-schemas.js';
import type { Destination } from './model.js';

// The package is CommonJS (module.exports = the array); its typings declare an ES default export.
const countries = worldCountries as unknown as readonly Country[];

/** ISO 639-1 → the key world-countries uses for its translations. */
const TRANSLATION_KEYS: Record<string, string> = {
  es: 'spa', fr: 'fra', de: 'deu', it: 'ita', ja: 'jpn', pt: 'por', nl: 'nld', zh: 'zho', ko: 'kor', ru: 'rus',
};

export interface CountryRecord {
  readonly code: string;
  readonly region: string;
  readonly subregion: string;
  readonly names: Record<string, string>;
}

/** Every ISO 3166-1 country from the world-countries package, with names in `languages`. */
export function isoCountries(languages: readonly string[]): CountryRecord[] {
  return countries.map((country) => {
    const names: Record<string, string> = { en: country.name.common };
    for (const lang of languages) {
      const key = TRANSLATION_KEYS[lang];
      const translated = key ? (country.translations as Record<string, { common: string } | undefined>)[key]?.common : undefined;
      if (translated) names[lang] = translated;
    }
    return { code: country.cca3, region: country.region, subregion: country.subregion, names };
  });
}

const ALPHA3_OF_ALPHA2 = new Map(countries.map((c) => [c.cca2, c.cca3]));

/** The ISO 3166 alpha-3 code of an alpha-2 one (a policy's home address records alpha-2). */
export const alpha3Of = (alpha2: string): string | undefined => ALPHA3_OF_ALPHA2.get(alpha2.toUpperCase());

/** The rating region of one country under the file's rules: country, then subregion, then region. */
export function countryRatingRegion(file: DestinationsFile, country: CountryRecord): string | undefined {
  const rules = file.countryRatingRegions;
  return rules.byCountry[country.code] ?? rules.bySubregion[country.subregion] ?? rules.byRegion[country.region];
}

/** Countries, regions and named lists, each with its rating region. */
export function compileDestinations(file: DestinationsFile, languages: readonly string[]): Destination[] {
  const result: Destination[] = [];
  for (const country of isoCountries(languages)) {
    const ratingRegion = countryRatingRegion(file, country);
    if (ratingRegion) result.push({ code: country.code, kind: 'COUNTRY', ratingRegion, names: country.names, countryCodes: [] });
  }
  for (const region of file.regions) {
    result.push({ code: region.code, kind: 'REGION', ratingRegion: region.ratingRegion, names: region.names, countryCodes: [] });
  }
  for (const list of file.countryLists) {
    result.push({ code: list.code, kind: 'LIST', ratingRegion: list.ratingRegion, names: list.names, countryCodes: list.countryCodes });
  }
  return result.sort((a, b) => a.code.localeCompare(b.code));
}
