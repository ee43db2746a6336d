import type { BrandCode } from '../kernel/brands.js';
import type { RateTable } from '../pricing/rate-tables.js';
import type { QuoteType } from '../pricing/request.js';
import type { Static } from 'typebox';
import type { BrandFile, Province as ProvinceFile, QuoteConfigFile, TermFile } from './file-schemas.js';
import type { RuleRefundBasis } from './refund-basis.js';
import type { BrandScreening, ScreeningCatalogue } from './screening.js';
import type { BrandReferrals } from './referrals.js';

/** Domain types of the compiled catalogue: what an import stores and what services read. */

export type { QuoteType };


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

export type Province = Readonly<Static<typeof ProvinceFile>>;

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
  /** ISO 4217 numeric code of `currencyCode`, as brand.yaml declares it. */
  readonly currencyId: number;
  /** Shared by every version of the plan code (plans.yaml `displayGroupId`). */
  readonly displayGroupId: number;
  /** The binding authority of the version's insurance contract (brand.yaml `binderId`). */
  readonly binderId: number;
  readonly homeCountryCodes: readonly string[];
  readonly overrideJurisdictionCountryCode?: string;
  readonly overrideJurisdictionProvinceCode?: string;
  readonly effectiveFromDate: string;
  /** Inclusive; absent = open ended. */
  readonly effectiveToDate?: string;
  readonly terms: readonly Term[];
}

/** How a policy of a plan may be cancelled and amended after purchase (catalogue/<brand>/servicing.yaml). */
export interface ServicingRules {
  /** Days after the issue date: the last cooling-off day is issue date + coolingOffDays (only before departure); 0 = none. */
  readonly coolingOffDays: number;
  readonly cancellation: {
    readonly beforeDeparture: RuleRefundBasis;
    readonly afterDeparture: RuleRefundBasis;
    /** Minor units of the plan currency. */
    readonly feeMinor: number;
  };
  readonly amendment: {
    /** Minor units of the plan currency. */
    readonly feeMinor: number;
    readonly beforeDeparture: {
      readonly dates: boolean;
      readonly destinations: boolean;
      readonly travellers: boolean;
      readonly options: boolean;
    };
    readonly afterDeparture: { readonly extendReturnDate: boolean };
  };
}

/** A brand's servicing rules: the defaults, and the merged rules of each plan code with an override. */
export interface BrandServicing {
  readonly defaults: ServicingRules;
  readonly plans: Readonly<Record<string, ServicingRules>>;
}

export interface BrandCatalogue {
  readonly brandCode: BrandCode;
  readonly brand: BrandFile;
  readonly quoteConfig: QuoteConfigFile;
  readonly plans: readonly PlanVersion[];
  readonly rates: RateTable;
  readonly servicing: BrandServicing;
  /** Medical screening rules of the brand's plans (catalogue/<brand>/screening.yaml). */
  readonly screening: BrandScreening;
  /** Referral rules and underwriting authority (catalogue/<brand>/referrals.yaml). */
  readonly referrals: BrandReferrals;
}

export interface CompiledCatalogue {
  readonly destinations: readonly Destination[];
  readonly homeCountries: readonly HomeCountry[];
  readonly brands: readonly BrandCatalogue[];
  /** Medical screening questions, conditions and weights (catalogue/shared/screening.yaml). */
  readonly screening: ScreeningCatalogue;
}
