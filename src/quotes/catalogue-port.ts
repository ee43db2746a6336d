import type { BrandCode } from '../kernel/brands.js';
import { brandOf, brandTimeZone, homeCountryQuoteConfiguration, versionInForce } from '../catalogue/service.js';
import type { CatalogueReader } from '../catalogue/reader.js';
import { offersScreening } from '../catalogue/screening.js';
import type { CampaignInfo, Destination, PlanVersion, QuoteCatalogue, QuoteConfiguration } from './ports.js';
import type { QuoteType } from './schemas.js';

/** The quotes area's view of the catalogue, served from the in-memory catalogue snapshot. */
export function catalogueQuotePort(reader: CatalogueReader): QuoteCatalogue {
  return {
    async quoteConfiguration(brandCode: BrandCode, quoteType: QuoteType): Promise<QuoteConfiguration | undefined> {
      const snapshot = await reader.snapshot();
      const brand = brandOf(snapshot, brandCode);
      const settings = brand.quoteConfig.quoteTypes[quoteType];
      const perHome = brand.quoteConfig.homeCountries.map((h) =>
        homeCountryQuoteConfiguration(snapshot, brandCode, quoteType, h.homeCountryCode),
      );
      return {
        minTravellers: settings.minTravellers,
        maxTravellers: settings.maxTravellers,
        minDependents: settings.minDependents,
        maxDependents: settings.maxDependents,
        maxPolicyHolders: settings.maxPolicyHolders,
        maxTripValuePerTraveller: settings.maxTripValuePerTraveller,
        travelDurationConfigs: perHome.map((c) => ({ homeCountryCode: c.homeCountry.code, ...c.travelDuration })),
        policyHolderAgeConfigs: perHome.map((c) => ({ homeCountryCode: c.homeCountry.code, ...c.policyHolderAge })),
        travelRestrictionConfigs: perHome.map((c) => ({
          homeCountryCode: c.homeCountry.code,
          isProvinceRequiredForQuote: c.isProvinceRequiredForQuote,
          noProductCountryCodes: c.noProductCountryCodes,
          unsafeCountryCodes: c.unsafeCountryCodes,
          sanctionedCountryCodes: c.sanctionedCountryCodes,
          unsupportedHomeProvinceCodes: c.unsupportedHomeProvinceCodes,
        })),
        currencyCode: brand.brand.currencyCode,
        timeZone: brandTimeZone(snapshot, brand),
      };
    },

    async destinations(_brandCode: BrandCode, codes: readonly string[]): Promise<Destination[]> {
      const snapshot = await reader.snapshot();
      return codes.flatMap((code) => {
        const destination = snapshot.destinations.get(code);
        return destination ? [{ code, name: destination.names.en ?? code, regionCode: destination.ratingRegion }] : [];
      });
    },

    async plans(brandCode: BrandCode, quoteType: QuoteType): Promise<PlanVersion[]> {
      const snapshot = await reader.snapshot();
      const brand = brandOf(snapshot, brandCode);
      // As the screening engine decides (engine.ts `isOffered`): the plan has rules and there are questions.
      return brand.plans
        .filter((p) => p.quoteType === quoteType)
        .map((p) => ({
          planId: p.planId,
          code: p.code,
          name: p.name,
          quoteType: p.quoteType,
          homeCountryCodes: p.homeCountryCodes,
          effectiveFromDate: p.effectiveFromDate,
          ...(p.effectiveToDate ? { effectiveToDate: p.effectiveToDate } : {}),
          offersScreening: offersScreening(snapshot.screening, brand.screening, p.code),
        }));
    },

    async campaign(brandCode: BrandCode, code: string): Promise<CampaignInfo | undefined> {
      const wanted = code.trim().toUpperCase();
      const found = brandOf(await reader.snapshot(), brandCode).rates.campaigns.find(
        (c) => c.code.toUpperCase() === wanted,
      );
      return found && { ...found };
    },

    async versionInForce(brandCode: BrandCode): Promise<string> {
      const snapshot = await reader.snapshot();
      return versionInForce(snapshot, brandOf(snapshot, brandCode));
    },
  };
}
