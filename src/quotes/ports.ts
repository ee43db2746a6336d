import type { BrandCode } from '../kernel/brands.js';
import type { PlanVersion as CataloguePlanVersion } from '../catalogue/model.js';
import type { Notification } from '../kernel/notifications/notification.js';
import type { PricingTraveller, SpecifiedItemChoice } from '../pricing/request.js';
import type { TravellerScreening } from '../screening/model.js';
import type { Executor } from '../db/database.js';
import type { ReferralStatus } from '../referrals/model.js';
import type { PricingRecord } from './stored-quote.js';
import type { QuoteInput, QuotePriceResult, QuotePriceSummary, QuoteType } from './schemas.js';

/**
 * What the quotes area needs from the catalogue and the pricing engine. The quotes area owns
 * these interfaces; adapters over `src/catalogue/` and `src/pricing/` implement them and
 * `src/app.ts` hands them in. All money crossing a port is an integer count of minor units,
 * except the quote configuration, which mirrors spec §2.5 (its doubles are major units).
 */

/** Spec §2.5 TravelDurationConfig. */
export interface DurationRules {
  homeCountryCode: string;
  minAdvancePurchaseDays: number;
  maxAdvancePurchaseDays: number;
  defaultTravelDurationDays: number;
  minTravelDurationDays: number;
  maxTravelDurationDays: number;
  maxTravelDurationMonths: number;
  /** Multi-trip: the longest single trip. */
  maxTripDurationDays: number;
}

/** Spec §2.5 PolicyHolderAgeConfig. */
export interface AgeRules {
  homeCountryCode: string;
  minTravellers: number;
  maxTravellers: number;
  minDependents: number;
  maxDependents: number;
  minTravellerAge: number;
  maxTravellerAge: number;
  minDependentAge: number;
  maxDependentAge: number;
  /** `AGEATQUOTE`: ages are taken at the quote date (the only rule implemented). */
  ageLimitTypeCode: string;
  maxPolicyHolders: number;
}

/** Spec §2.5 TravelRestrictionConfig. */
export interface RestrictionRules {
  homeCountryCode: string;
  isProvinceRequiredForQuote: boolean;
  noProductCountryCodes: readonly string[];
  unsafeCountryCodes: readonly string[];
  sanctionedCountryCodes: readonly string[];
  unsupportedHomeProvinceCodes: readonly string[];
}

/** Spec §2.5 quote configuration in force for a brand and quote type, plus what pricing needs. */
export interface QuoteConfiguration {
  minTravellers: number;
  maxTravellers: number;
  minDependents: number;
  maxDependents: number;
  maxPolicyHolders: number;
  /** Major units, as spec §2.5. */
  maxTripValuePerTraveller: number;
  travelDurationConfigs: readonly DurationRules[];
  policyHolderAgeConfigs: readonly AgeRules[];
  travelRestrictionConfigs: readonly RestrictionRules[];
  /** ISO 4217 currency the brand sells in; input amounts (major units) become minor units with it. */
  currencyCode: string;
  /** IANA zone whose calendar date is "the quote date" for this brand, e.g. `Australia/Sydney`. */
  timeZone: string;
}

/** A destination code the catalogue knows (extended ISO-3166 alpha-3: countries, regions, lists). */
export interface Destination {
  code: string;
  name: string;
  /** Rating region the pricing engine rates this destination in, e.g. `ASIA`. */
  regionCode: string;
}

/** Whether a plan version offers medical screening (the brand's screening rules). */
export interface PlanScreeningOffer {
  /** False when the plan offers no medical screening; absent: offered. */
  readonly offersScreening?: boolean;
}

/** One version of a plan (spec §2.6 subset): the catalogue's, as much of it as a quote reads. */
export type PlanVersion = Pick<
  CataloguePlanVersion,
  'planId' | 'code' | 'name' | 'quoteType' | 'homeCountryCodes' | 'effectiveFromDate' | 'effectiveToDate'
> &
  PlanScreeningOffer;

/** A published discount code. */
export interface CampaignInfo {
  campaignId: number;
  code: string;
  discountPercentage: number;
  /** YYYY-MM-DD, inclusive. */
  validFrom: string;
  validTo: string;
  /** Only these partners; absent = every partner. */
  partnerCodes?: readonly string[];
  /** Only these plans; absent = every plan. */
  planCodes?: readonly string[];
}

export interface QuoteCatalogue {
  /** The configuration in force at `at`, or undefined when the brand does not sell this quote type. */
  quoteConfiguration(brandCode: BrandCode, quoteType: QuoteType, at: Date): Promise<QuoteConfiguration | undefined>;
  /** The known destinations among `codes` (unknown codes are simply absent). */
  destinations(brandCode: BrandCode, codes: readonly string[]): Promise<Destination[]>;
  /** Every plan version of the brand and quote type; the quotes area filters by home country and date. */
  plans(brandCode: BrandCode, quoteType: QuoteType): Promise<PlanVersion[]>;
  campaign(brandCode: BrandCode, code: string): Promise<CampaignInfo | undefined>;
  /** Identifies the catalogue and rate tables in force at `at`; changes whenever either changes. */
  versionInForce(brandCode: BrandCode, at: Date): Promise<string>;
}

/** What the quotes area asks its pricing port to price (the engine takes a `PricingRequest` of its own, `src/pricing/request.ts`); validated and normalised by the quotes area first. */
export interface QuotePricingRequest {
  brandCode: BrandCode;
  quoteType: QuoteType;
  homeCountryCode: string;
  provinceCode?: string;
  partnerCode: string;
  /** YYYY-MM-DD in the brand's time zone. */
  quoteDate: string;
  departureDate: string;
  returnDate: string;
  /** Days of cover, both ends inclusive. */
  coverDays: number;
  /** The longest single trip (single trip: the trip itself). */
  longestTripDays: number;
  regionCodes: readonly string[];
  travellers: readonly PricingTraveller[];
  /** The plans to price: those sold for the home country on the quote date. */
  plans: readonly PlanVersion[];
  campaign?: CampaignInfo;
  /** In the input's order (index i is `input.basicOptions[i]`); a missing optionType is ''. */
  basicOptions: readonly { optionType: string; isOptedIn: boolean; optedInTotalValue?: number }[];
  adventureActivityIds: readonly number[];
  /** In the input's order (index j is `input.specifiedItemOption.specifiedItems[j]`). */
  specifiedItems: readonly (Pick<SpecifiedItemChoice, 'guid' | 'itemValue'> & {
    name: string;
    itemTypeId?: number;
    itemTypeCode?: string;
  })[];
  cancellationCoverLimit?: number;
  tripValue?: number;
  /** Medical premiums (minor units) of the travellers opted in for cover, each for the plan screened. */
  medicalPremiums?: readonly { planId: number; travellerGuid: string; premium: number }[];
  /** An underwriter's approved loading of the referred quote, for the plan approved. */
  underwritingLoading?: UnderwritingLoadingChoice;
}

/** A loading percentage on one plan of the quote. */
export interface UnderwritingLoadingChoice {
  readonly planId: number;
  readonly percentage: number;
}

/** One plan's price in the contract's shapes, every amount in integer minor units. */
export interface PricedPlan {
  planId: number;
  result: QuotePriceResult;
  summary: QuotePriceSummary;
}

export interface PricingOutcome {
  /** ISO 4217 code; decides how many decimals minor units have. */
  currencyCode: string;
  plans: PricedPlan[];
  /** Rate-table rules the engine checked (unknown option, item over its limit), paths under `input.`. */
  notifications: Notification[];
}

export interface QuotePricing {
  priceQuote(request: QuotePricingRequest): Promise<PricingOutcome>;
}

/** The travellers' medical screenings (TravelClear) of a stored quote; the screening area answers. */
export interface QuoteScreenings {
  /**
   * `against`: the quote input (and catalogue version) the screenings are judged against: one made
   * for other destinations, dates, plan, traveller or version reads STALE. Absent: as they were
   * completed (a sold policy's amendments apply their own screening rules).
   */
  ofQuote(
    quoteId: string,
    against?: { readonly input: QuoteInput; readonly catalogueVersion?: string },
  ): Promise<readonly TravellerScreening[]>;
}

export interface QuotePorts {
  readonly catalogue: QuoteCatalogue;
  readonly pricing: QuotePricing;
  readonly screenings: QuoteScreenings;
}

/** A stored quote's referral as its answers show it (money in minor units; routes convert). */
export interface QuoteReferralView {
  readonly status: ReferralStatus;
  readonly reasonCodes: readonly string[];
  readonly referredAt: string;
  readonly decidedAt?: string;
  readonly loadingPercentage?: number;
  readonly extraExcessMinor?: number;
  readonly declineReason?: string;
  readonly informationRequested?: string;
}

/** What the referral rules are judged on: an evaluation of a quote about to be stored. */
export interface ReferralRequest {
  readonly brandCode: BrandCode;
  readonly partnerId: number;
  readonly quoteId: string;
  /** A quote being created has no referral yet. */
  readonly isNew: boolean;
  readonly input: QuoteInput;
  readonly pricing: PricingRecord;
  readonly screenings: readonly TravellerScreening[];
  readonly now: Date;
}

export interface ReferralJudgement {
  /** The referral that applies to the quote as judged, if any. */
  readonly referral?: QuoteReferralView;
  /** An approved loading still in force: the quote is priced again with it. */
  readonly loading?: UnderwritingLoadingChoice;
  /**
   * Runs the quote's own write with the referral's change (and its event) in one transaction when
   * there is a change; undefined, and nothing kept, when the write answers undefined.
   */
  store<T>(write: (db: Executor) => Promise<T | undefined>): Promise<T | undefined>;
}

/** The referrals area's rules over a quote (referrals/quote-port.ts); `src/quotes/live-ports.ts` builds it. */
export interface QuoteReferrals {
  judge(request: ReferralRequest): Promise<ReferralJudgement>;
  /** The referral that applies to a stored quote as it is now. */
  viewOf(quote: { readonly id: string; readonly input: QuoteInput }): Promise<QuoteReferralView | undefined>;
}
