import type { BrandCode } from './brands.js';
import type { RateTable } from '../pricing/rate-tables.js';
import type { BrandFile, QuoteConfigFile, TermFile } from './file-schemas.js';

/** Domain types of the compiled catalogue: what an import stores and what services read. */

export type QuoteType = 'SINGLETRIP' | 'MULTITRIP';

export interface Destination {
  /** ISO 3166 alpha-3, or an extended X.. code for a region or a named country list. */
  readonly code: string;
  readonly kind: 'COUNTRY' | 'REGION' | 'LIST';
  readonly ratingRegion: string;
  /** Name per language code (English always). */
  readonly names: Readonly<Record<string, string>>;
  /** Member countries of a named list; empty otherwise. */
  readonly countryCodes: readonly string[];
}

export interface Province {
  readonly code: string;
  readonly name: string;
  readonly timeZone: string;
}

export interface HomeCountry {
  readonly code: string;
  readonly timeZone: string;
  readonly provinces: readonly Province[];
}

export type Term = TermFile;

/** One version of a plan: what the plan endpoint answers, in force between its dates. */
export interface PlanVersion {
  readonly planId: number;
  readonly code: string;
  readonly quoteType: QuoteType;
  readonly name: string;
  readonly translations: Readonly<Record<string, { readonly name: string }>>;
  readonly insuranceContractId: number;
  readonly policyNumberPrefix: string;
  readonly policyNumberFormat: string;
  readonly underwriterCode: string;
  readonly currencyCode: string;
  readonly homeCountryCodes: readonly string[];
  readonly overrideJurisdictionCountryCode?: string;
  readonly overrideJurisdictionProvinceCode?: string;
  readonly effectiveFromDate: string;
  /** Inclusive; absent = open ended. */
  readonly effectiveToDate?: string;
  readonly terms: readonly Term[];
}

export interface BrandCatalogue {
  readonly brandCode: BrandCode;
  readonly brand: BrandFile;
  readonly quoteConfig: QuoteConfigFile;
  readonly plans: readonly PlanVersion[];
  readonly rates: RateTable;
}

export interface CompiledCatalogue {
  readonly destinations: readonly Destination[];
  readonly homeCountries: readonly HomeCountry[];
  readonly brands: readonly BrandCatalogue[];
}
