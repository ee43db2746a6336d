import { Type, type Static } from 'typebox';
import { BrandCodeParam, LongId } from '../http/schemas.js';
import { QUOTE_TYPES } from '../pricing/request.js';

/** Shapes of the product endpoints (spec §2.5–2.7, §4.4–4.9); field names exactly as the spec. */

const Str = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));
const Int = (description?: string) => Type.Optional(Type.Integer(description ? { description } : {}));
const Long = (description?: string) => Type.Optional(Type.Integer({ description: description ?? '64-bit integer.' }));
const Codes = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));
const Expiry = Int('Seconds this response may be reused before refreshing; also sent as `Cache-Control: max-age`.');

export const TravelDurationConfig = Type.Object({
  homeCountryCode: Str(),
  minAdvancePurchaseDays: Int('Minimum days ahead the departure date may be set.'),
  maxAdvancePurchaseDays: Int('Maximum days ahead the departure date may be set.'),
  defaultTravelDurationDays: Int(),
  minTravelDurationDays: Int(),
  maxTravelDurationDays: Int(),
  maxTravelDurationMonths: Int(),
  maxTripDurationDays: Int('Longest single trip (for annual multi-trip, each trip).'),
}, { title: 'TravelDurationConfig' });

export const PolicyHolderAgeConfig = Type.Object({
  homeCountryCode: Str(),
  minTravellers: Int(), maxTravellers: Int(), minDependents: Int(), maxDependents: Int(),
  minTravellerAge: Int(), maxTravellerAge: Int(), minDependentAge: Int(), maxDependentAge: Int(),
  ageLimitTypeCode: Str('`AGEATQUOTE`: ages are taken at the quote date.'),
  legalAgeOfConsent: Int(), ambiguousAgeGap: Int(), maxAmbiguousAge: Int(), maxPolicyHolders: Int(),
}, { title: 'PolicyHolderAgeConfig' });

export const TravelRestrictionConfig = Type.Object({
  homeCountryCode: Str(),
  isHandledByLegacy: Type.Optional(Type.Boolean({ default: false })),
  isProvinceRequiredForQuote: Type.Optional(Type.Boolean({ default: false, description: 'Whether a state/province is needed to obtain a quote.' })),
  domesticTravelCoverTypeCode: Str('`NOTCOVERED`: travel inside the home country is not covered.'),
  noProductCountryCodes: Codes('Destinations no plan covers.'),
  unsafeCountryCodes: Codes('Travel may be restricted.'),
  sanctionedCountryCodes: Codes('Travel to and from is not allowed.'),
  unsupportedHomeProvinceCodes: Codes('Home provinces the brand does not sell to.'),
}, { title: 'TravelRestrictionConfig' });

export const QuoteConfigResponse = Type.Object(
  {
    quotePanelTypeId: Long(),
    expirySeconds: Expiry,
    minTravellers: Int('Adult travellers per policy.'),
    maxTravellers: Int('Adult travellers per policy.'),
    minDependents: Int(),
    maxDependents: Int(),
    maxPolicyHolders: Int(),
    travelDurationConfigs: Type.Optional(Type.Array(TravelDurationConfig)),
    policyHolderAgeConfigs: Type.Optional(Type.Array(PolicyHolderAgeConfig)),
    travelRestrictionConfigs: Type.Optional(Type.Array(TravelRestrictionConfig)),
    maxTripValuePerTraveller: Type.Optional(Type.Number()),
  },
  { title: 'QuoteConfigResponse', description: 'Quote configuration of a brand for one quote type (spec §2.5).' },
);
export type QuoteConfigResponse = Static<typeof QuoteConfigResponse>;

export const TokenReplacement = Type.Object({ token: Str(), label: Str(), url: Str(), underwriterContentType: Str() }, { title: 'TokenReplacement' });

export const TermConditionSummary = Type.Object({
  termConditionId: Long(),
  customerDeclarationText: Str('May contain HTML links and upper-case tokens replaced per tokenReplacements.'),
  tokenReplacements: Type.Optional(Type.Array(TokenReplacement)),
  countryCode: Str(),
  provinceCode: Str(),
  policyActionTypeId: Long('1 = purchase.'),
  destinationCountryCodes: Codes('Only for trips to these destinations; absent = all.'),
  partnerGroupIds: Type.Optional(Type.Array(Type.Integer(), { description: 'Only for partners of these groups; absent = all.' })),
}, { title: 'TermConditionSummary' });

export const PlanResponse = Type.Object(
  {
    expirySeconds: Expiry,
    planId: Long('Id of this plan version.'),
    code: Str('Stable across plan versions.'),
    name: Str(),
    insuranceContractId: Long(),
    policyNumberPrefix: Str(),
    policyNumberFormat: Str('Pattern of parts: `{prefix}`, `{jurisdiction}` (alpha-2), `{yy}`, `{yyyy}`, `{increment:N}` and literal A-Z 0-9 `-`.'),
    underwriterCode: Str(),
    currencyCode: Str(),
    homeCountryCodes: Codes('Home countries this plan is sold to.'),
    pdsUrl: Str('Relative path of the PDS document: `v2/{brandCode}/insuranceContract/{id}/pds?planId=…&lang=…`.'),
    purchaseTermsAndConditions: Type.Optional(Type.Array(TermConditionSummary)),
    overrideJurisdictionCountryCode: Str(),
    overrideJurisdictionProvinceCode: Str(),
    effectiveFromDate: Str('First day the version is sold (YYYY-MM-DD).'),
    effectiveToDate: Str('Last day the version is sold (inclusive); absent = open ended.'),
    availableTranslations: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Language code → language name.' })),
    quoteType: Str('`SINGLETRIP` or `MULTITRIP`.'),
    brandCode: Str(),
  },
  { title: 'PlanResponse', description: 'Plan configuration (spec §2.6).' },
);
export type PlanResponse = Static<typeof PlanResponse>;

export const BrandContentResponse = Type.Object(
  {
    expirySeconds: Expiry,
    code: Str('Brand code.'),
    name: Str(),
    effectiveToDate: Str(),
    contentItems: Type.Optional(Type.Array(Type.Object({ type: Str('e.g. EMAILREPLYTOANDFROM, TNCHEADER, EFOOTER.'), content: Str() }))),
    availableTranslations: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Language code → language name.' })),
  },
  { title: 'BrandContentResponse', description: 'Brand content (spec §2.7).' },
);
export type BrandContentResponse = Static<typeof BrandContentResponse>;

export const FeaturesResponse = Type.Object(
  { expirySeconds: Expiry, features: Type.Optional(Type.Array(Type.Object({ code: Str('e.g. CAMPEN, COVIDCOVER.'), name: Str() }))) },
  { title: 'FeaturesResponse', description: 'Feature switches of an insurance contract (spec §2.7).' },
);
export type FeaturesResponse = Static<typeof FeaturesResponse>;

export const PdsSummaryResponse = Type.Object(
  { name: Str(), filename: Str(), contentTypeCode: Str('Always `PDF`.'), contentLanguage: Codes('Language codes of the document.') },
  { title: 'PdsSummaryResponse', description: 'PDS metadata (spec §2.7); describes the document the `/pds` endpoint returns.' },
);
export type PdsSummaryResponse = Static<typeof PdsSummaryResponse>;

const Lang = Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}([-_][A-Za-z]{2})?$', description: 'Language code (e.g. `en`, `es`, `es-MX`); unknown or absent → the brand default.' }));

export const QuoteConfigQuery = Type.Object({
  // Optional with a default (filled in by validation), so clients may leave it out.
  quoteType: Type.Optional(Type.Enum([...QUOTE_TYPES], { type: 'string', default: 'SINGLETRIP' })),
});
export const PlansQuery = Type.Object({
  planCode: Type.String({ minLength: 1, maxLength: 20 }),
  effectiveAt: Type.Optional(Type.String({ maxLength: 40, examples: ['2026-12-01', '2026-12-01T09:00:00+11:00'], description: 'YYYY-MM-DD, or an ISO 8601 date-time with an offset (`Z` or `±hh:mm`) read in the brand time zone; default today. Anything else is 400 `INVALID_DATE`.' })),
  preferredDocumentFileType: Type.Optional(Type.Enum(['PDF', 'pdf'], { type: 'string', description: 'Only PDF documents exist.' })),
  lang: Lang,
  partnerCode: Type.Optional(Type.String({ maxLength: 40, description: "The caller's own partner code (the token's partner is used when absent); another partner's code answers 403 `PARTNER_NOT_ALLOWED`." })),
});
export const LangQuery = Type.Object({ lang: Lang });
export const PdsQuery = Type.Object({
  lang: Lang,
  countryCode: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Home country (alpha-3); picks a country-specific document when one exists.' })),
  provinceCode: Type.Optional(Type.String({ maxLength: 10 })),
  planId: Type.Optional(LongId('Plan version id; picks a plan-specific document when one exists.')),
});
export const BrandIdParams = Type.Object({ brandCode: BrandCodeParam, brandId: LongId('Internal brand id (1–4).') });
export const ContractParams = Type.Object({ brandCode: BrandCodeParam, insuranceContractId: LongId('Insurance contract id.') });
