import type { RateTable } from './rate-tables.js';
import type { Minor } from '../kernel/money/units.js';

/** Single trip or annual multi-trip: a plan sells one, a quote asks for one (the catalogue and the contract derive theirs from this list). */
export const QUOTE_TYPES = ['SINGLETRIP', 'MULTITRIP'] as const;
export type QuoteType = (typeof QUOTE_TYPES)[number];

/**
 * What the engine prices: a quote already resolved into rating terms by the caller (the quotes
 * area maps destinations to rating regions, dates to a duration and ages, doubles to minor units).
 */
export interface PricingRequest {
  /** The brand's rate tables in force. */
  rateTable: RateTable;
  /** Plans to price; each gets one outcome, in this order. */
  planCodes: readonly string[];
  /**
   * SINGLETRIP or MULTITRIP. The rate table has no quote-type dimension (single and multi-trip are
   * different plans), so this only says how `tripDurationDays` was measured.
   */
  quoteType: QuoteType;
  travellers: readonly PricingTraveller[];
  /** Rating regions of every destination; the trip is rated at the highest-ranked one. */
  regionCodes: readonly string[];
  /** Days of cover (departure to return, inclusive); multi-trip: the longest single trip. */
  tripDurationDays: number;
  /** ISO 3166 alpha-3 home country of the primary holder (selects taxes). */
  homeCountryCode: string;
  /** Home state or province (selects province taxes such as stamp duty). */
  homeProvinceCode?: string | undefined;
  /** Chosen excess in minor units; absent = the plan's standard excess. */
  excess?: Minor | undefined;
  /** Basic options named by the quote; options not named follow the table's `isDefault`. */
  basicOptions?: readonly BasicOptionChoice[] | undefined;
  /** Adventure activities the travellers will do; the highest level needed is charged. */
  adventureActivityIds?: readonly number[] | undefined;
  specifiedItems?: readonly SpecifiedItemChoice[] | undefined;
  /** Cancellation cover limit in minor units; absent = the plan's default limit. */
  cancellationCoverLimit?: Minor | undefined;
  campaignCode?: string | undefined;
  partnerCode?: string | undefined;
  /** The quote date, YYYY-MM-DD (campaign validity). */
  quoteDate: string;
  /** Medical screening premiums of the travellers opted in for cover (each for the plan screened). */
  medicalPremiums?: readonly MedicalPremium[] | undefined;
  /** An underwriter's approved loading of a referred quote, for the plan approved (pricing/loading.ts). */
  underwritingLoadings?: readonly UnderwritingLoading[] | undefined;
}

/** A percentage added to one plan's premium by an underwriter (0 < percentage). */
export interface UnderwritingLoading {
  planCode: string;
  percentage: number;
}

/** A traveller's medical premium as the screening engine assessed it, for one plan. */
export interface MedicalPremium {
  planCode: string;
  travellerGuid: string;
  /** Minor units; 0 when covered without loading. */
  premium: Minor;
}

/**
 * A traveller as the engine rates it. The contract's PolicyHolderInput (quotes/schemas/input.ts) is
 * another shape on purpose (every field optional, age or date of birth): quotes/validation/travellers.ts
 * resolves one into this (guid filled in, age at the quote date), and the quotes area passes it on as is.
 */
export interface PricingTraveller {
  guid: string;
  /** Age at the quote date, whole years. */
  age: number;
  isDependent: boolean;
}

export interface BasicOptionChoice {
  optionTypeCode: string;
  isOptedIn: boolean;
}

export interface SpecifiedItemChoice {
  guid: string;
  /** Declared value in minor units. */
  itemValue: Minor;
  itemTypeCode: string;
}
