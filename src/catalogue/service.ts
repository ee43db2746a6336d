import { parseDate } from '../kernel/calendar/dates.js';
import { dateIn } from '../kernel/calendar/zones.js';
import type { AppContext } from '../context.js';
import { CatalogueNotLoaded, InvalidDate, PartnerNotAllowed, PlanNotSold, UnknownHomeCountry, UnknownPlanCode } from './errors.js';
import type { BrandCatalogue, HomeCountry, PlanVersion, QuoteType } from './model.js';
import { catalogueReaderFor, type CatalogueReader, type CatalogueSnapshot } from './reader.js';

/**
 * The catalogue's rules in domain terms, for the product routes and for other areas (quotes):
 * the brand's time zone and the date a request asks about, plan versions in force, and the quote
 * configuration per brand / quote type / home country.
 */
export type { BrandCatalogue, Destination, HomeCountry, PlanVersion, QuoteType } from './model.js';
export type { CatalogueSnapshot } from './reader.js';

/** The shared in-memory catalogue of an app (one per database handle). */
export function catalogueOf(context: AppContext): CatalogueReader {
  return catalogueReaderFor(context.db, { refreshMs: context.config.catalogueRefreshSeconds * 1000 });
}

export function brandOf(snapshot: CatalogueSnapshot, brandCode: string): BrandCatalogue {
  const brand = snapshot.brands.get(brandCode);
  if (!brand) throw new CatalogueNotLoaded();
  return brand;
}

/**
 * The catalogue and rate version a brand's quotes are priced against now: the import version
 * identifies catalogue and rate tables together (identical content imported again makes no new
 * version), so a quote only sees a change when one happened.
 */
export function versionInForce(snapshot: CatalogueSnapshot, brand: BrandCatalogue): string {
  return `${snapshot.versionId}:${brand.rates.version}`;
}

/** The brand's own time zone: that of its first home country (plan dates are local dates there). */
export function brandTimeZone(snapshot: CatalogueSnapshot, brand: BrandCatalogue): string {
  return snapshot.homeCountries.get(brand.brand.homeCountryCodes[0] ?? '')?.timeZone ?? 'UTC';
}

/**
 * The calendar date a request asks about: `effectiveAt` as a date (YYYY-MM-DD) or an ISO date-time
 * (read in the brand's time zone); absent means today there.
 */
export function effectiveDate(snapshot: CatalogueSnapshot, brand: BrandCatalogue, effectiveAt: string | undefined, now: Date, property = 'effectiveAt'): string {
  const zone = brandTimeZone(snapshot, brand);
  if (effectiveAt === undefined) return dateIn(now, zone);
  if (/^\d{4}-\d{2}-\d{2}$/.test(effectiveAt)) {
    if (!parseDate(effectiveAt)) throw new InvalidDate(property, effectiveAt);
    return effectiveAt;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(effectiveAt)) throw new InvalidDate(property, effectiveAt);
  const instant = new Date(effectiveAt);
  if (Number.isNaN(instant.getTime())) throw new InvalidDate(property, effectiveAt);
  return dateIn(instant, zone);
}

/**
 * The partner whose reserved terms a caller may see: its own, always. `partnerCode` in the query
 * only confirms it (any letter case); another partner's code is refused (403), never obeyed.
 */
export function callerPartner(caller: { readonly partnerCode: string }, requested: string | undefined): string {
  if (requested !== undefined && requested.toUpperCase() !== caller.partnerCode.toUpperCase()) throw new PartnerNotAllowed();
  return caller.partnerCode;
}

export function isInForce(plan: PlanVersion, date: string): boolean {
  return plan.effectiveFromDate <= date && (!plan.effectiveToDate || date <= plan.effectiveToDate);
}

/** The version of plan `planCode` in force on `date`; 404 when the code is unknown or not sold then. */
export function planVersionAt(brand: BrandCatalogue, planCode: string, date: string): PlanVersion {
  const versions = brand.plans.filter((p) => p.code === planCode);
  if (versions.length === 0) throw new UnknownPlanCode(planCode);
  const version = versions.find((p) => isInForce(p, date));
  if (!version) throw new PlanNotSold(planCode, date);
  return version;
}

/** The quote settings of a brand and quote type for one of its home countries. */
export interface HomeCountryQuoteConfiguration {
  readonly brandCode: string;
  readonly quoteType: QuoteType;
  readonly homeCountry: HomeCountry;
  readonly quotePanelTypeId: number;
  readonly expirySeconds: number;
  readonly minTravellers: number;
  readonly maxTravellers: number;
  readonly minDependents: number;
  readonly maxDependents: number;
  readonly maxPolicyHolders: number;
  readonly maxTripValuePerTraveller: number;
  readonly travelDuration: BrandCatalogue['quoteConfig']['quoteTypes']['SINGLETRIP']['travelDuration'];
  readonly policyHolderAge: BrandCatalogue['quoteConfig']['homeCountries'][number]['policyHolderAge'];
  readonly isProvinceRequiredForQuote: boolean;
  readonly unsupportedHomeProvinceCodes: readonly string[];
  readonly domesticTravelCoverTypeCode: string;
  readonly noProductCountryCodes: readonly string[];
  readonly unsafeCountryCodes: readonly string[];
  readonly sanctionedCountryCodes: readonly string[];
}

/** The quote configuration in force for a brand, quote type and home country. */
export function homeCountryQuoteConfiguration(snapshot: CatalogueSnapshot, brandCode: string, quoteType: QuoteType, homeCountryCode: string): HomeCountryQuoteConfiguration {
  const brand = brandOf(snapshot, brandCode);
  const home = brand.quoteConfig.homeCountries.find((h) => h.homeCountryCode === homeCountryCode);
  const homeCountry = snapshot.homeCountries.get(homeCountryCode);
  if (!home || !homeCountry) throw new UnknownHomeCountry(homeCountryCode);
  const settings = brand.quoteConfig.quoteTypes[quoteType];
  return {
    brandCode,
    quoteType,
    homeCountry,
    quotePanelTypeId: settings.quotePanelTypeId,
    expirySeconds: brand.quoteConfig.expirySeconds,
    minTravellers: settings.minTravellers,
    maxTravellers: settings.maxTravellers,
    minDependents: settings.minDependents,
    maxDependents: settings.maxDependents,
    maxPolicyHolders: settings.maxPolicyHolders,
    maxTripValuePerTraveller: settings.maxTripValuePerTraveller,
    travelDuration: home.travelDuration?.[quoteType] ?? settings.travelDuration,
    policyHolderAge: home.policyHolderAge,
    isProvinceRequiredForQuote: home.isProvinceRequiredForQuote,
    unsupportedHomeProvinceCodes: home.unsupportedHomeProvinceCodes,
    domesticTravelCoverTypeCode: home.domesticTravelCoverTypeCode,
    ...home.restrictions,
  };
}
