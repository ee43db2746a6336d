import { Type, type Static } from 'typebox';
import { QUOTE_TYPES } from '../pricing/request.js';
import { RULE_REFUND_BASES } from './refund-basis.js';

/**
 * Schemas of the catalogue files (YAML under `catalogue/`). One schema per file kind; the
 * validator reports the file, the path inside it and the reason for each violation.
 */

const Code3 = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 3166 alpha-3 (or extended X.. code).' });
const Lang = Type.String({ pattern: '^[a-z]{2}$', description: 'ISO 639-1 language code.' });
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Text = Type.String({ minLength: 1 });
const TimeZone = Type.String({ minLength: 3, description: 'IANA time zone, e.g. Australia/Sydney.' });
const Names = Type.Record(Lang, Text, { description: 'Name per language.' });
const Strict = { additionalProperties: false } as const;

// catalogue/shared/destinations.yaml
export const DestinationsFile = Type.Object(
  {
    ratingRegions: Type.Array(Text, { minItems: 1, description: 'Every rating region a destination may map to.' }),
    countryRatingRegions: Type.Object(
      {
        byRegion: Type.Record(Text, Text, { description: 'world-countries `region` → rating region.' }),
        bySubregion: Type.Record(Text, Text, { description: 'world-countries `subregion` → rating region (wins over byRegion).' }),
        byCountry: Type.Record(Code3, Text, { description: 'Single-country overrides (win over both).' }),
      },
      Strict,
    ),
    regions: Type.Array(Type.Object({ code: Code3, ratingRegion: Text, names: Names }, Strict)),
    countryLists: Type.Array(
      Type.Object({ code: Code3, ratingRegion: Text, names: Names, countryCodes: Type.Array(Code3, { minItems: 1 }) }, Strict),
    ),
  },
  Strict,
);
export type DestinationsFile = Static<typeof DestinationsFile>;

// catalogue/shared/countries.yaml
// `id`: the province's stable numeric id (a policy's `Address.provinceId`), unique in the file.
export const Province = Type.Object({ id: Type.Integer({ minimum: 1 }), code: Type.String({ pattern: '^[A-Z0-9]{1,3}$' }), name: Text, timeZone: TimeZone }, Strict);
export const CountriesFile = Type.Object(
  {
    homeCountries: Type.Array(
      Type.Object({ code: Code3, timeZone: TimeZone, provinces: Type.Optional(Type.Array(Province)) }, Strict),
      { minItems: 1 },
    ),
  },
  Strict,
);
export type CountriesFile = Static<typeof CountriesFile>;

const Term = Type.Object(
  {
    termConditionId: Type.Integer({ minimum: 1 }),
    customerDeclarationText: Text,
    tokenReplacements: Type.Array(
      Type.Object({ token: Type.String({ pattern: '^[A-Z][A-Z0-9_]*$' }), label: Text, url: Text, underwriterContentType: Text }, Strict),
    ),
    countryCode: Type.Optional(Code3),
    provinceCode: Type.Optional(Text),
    policyActionTypeId: Type.Integer({ minimum: 1 }),
    destinationCountryCodes: Type.Optional(Type.Array(Code3)),
    partnerGroupIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }))),
    translations: Type.Optional(Type.Record(Lang, Type.Object({ customerDeclarationText: Text, labels: Type.Optional(Type.Record(Text, Text)) }, Strict))),
  },
  Strict,
);

const PdsDocument = Type.Object(
  {
    key: Type.String({ pattern: '^[a-z0-9-]+$' }),
    lang: Lang,
    countryCode: Type.Optional(Code3),
    provinceCode: Type.Optional(Text),
    planIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1 })),
    name: Text,
    filename: Type.String({ pattern: '^[A-Za-z0-9._-]+\\.pdf$' }),
    title: Text,
    sections: Type.Array(Type.Object({ heading: Text, body: Text }, Strict), { minItems: 1 }),
  },
  Strict,
);

// catalogue/<brand>/brand.yaml
export const BrandFile = Type.Object(
  {
    brandCode: Text,
    name: Text,
    defaultLanguage: Lang,
    languages: Type.Record(Lang, Text, { description: 'Language code → language name (availableTranslations).' }),
    expirySeconds: Type.Integer({ minimum: 0, maximum: 604_800 }),
    effectiveToDate: Type.Optional(IsoDate),
    currencyCode: Type.String({ pattern: '^[A-Z]{3}$' }),
    currencyId: Type.Integer({ minimum: 1, maximum: 999, description: 'ISO 4217 numeric code of currencyCode (a policy\'s `Currency.id`).' }),
    homeCountryCodes: Type.Array(Code3, { minItems: 1 }),
    contentItems: Type.Record(Lang, Type.Array(Type.Object({ type: Type.String({ pattern: '^[A-Z0-9_]+$' }), content: Text }, Strict), { minItems: 1 })),
    optionTypes: Type.Optional(
      Type.Array(Type.Object({ code: Type.String({ pattern: '^[A-Z0-9]+$' }), names: Names }, Strict), {
        description: 'Names of the option types (rates.yaml optionTypeCode, ADVENTUREACTIVITIES, SPECIFIEDITEMS, CANCELLATION) as documents print them, per language.',
      }),
    ),
    partnerGroups: Type.Array(Type.Object({ id: Type.Integer({ minimum: 1 }), partnerCodes: Type.Array(Text, { minItems: 1 }) }, Strict)),
    termsAndConditions: Type.Array(Term),
    insuranceContracts: Type.Array(
      Type.Object(
        {
          insuranceContractId: Type.Integer({ minimum: 1 }),
          binderId: Type.Integer({ minimum: 1, description: 'The binding authority the underwriter issues this contract\'s policies under (a policy\'s `binderId`).' }),
          name: Text,
          underwriterCode: Text,
          features: Type.Array(Type.Object({ code: Type.String({ pattern: '^[A-Z0-9]+$' }), name: Text }, Strict)),
          pdsDocuments: Type.Array(PdsDocument, { minItems: 1 }),
        },
        Strict,
      ),
      { minItems: 1 },
    ),
  },
  Strict,
);
export type BrandFile = Static<typeof BrandFile>;
export type TermFile = Static<typeof Term>;
export type PdsDocumentFile = Static<typeof PdsDocument>;

const Count = Type.Integer({ minimum: 0, maximum: 1000 });
const TravelDuration = Type.Object(
  {
    minAdvancePurchaseDays: Count,
    maxAdvancePurchaseDays: Count,
    defaultTravelDurationDays: Count,
    minTravelDurationDays: Count,
    maxTravelDurationDays: Count,
    maxTravelDurationMonths: Count,
    maxTripDurationDays: Count,
  },
  Strict,
);
const PolicyHolderAge = Type.Object(
  {
    minTravellers: Count,
    maxTravellers: Count,
    minDependents: Count,
    maxDependents: Count,
    minTravellerAge: Count,
    maxTravellerAge: Count,
    minDependentAge: Count,
    maxDependentAge: Count,
    ageLimitTypeCode: Text,
    legalAgeOfConsent: Count,
    ambiguousAgeGap: Count,
    maxAmbiguousAge: Count,
    maxPolicyHolders: Count,
  },
  Strict,
);
const QuoteTypeSettings = Type.Object(
  {
    quotePanelTypeId: Type.Integer({ minimum: 1 }),
    minTravellers: Count,
    maxTravellers: Count,
    minDependents: Count,
    maxDependents: Count,
    maxPolicyHolders: Count,
    maxTripValuePerTraveller: Type.Number({ minimum: 0 }),
    travelDuration: TravelDuration,
  },
  Strict,
);

// catalogue/<brand>/quote-config.yaml
export const QuoteConfigFile = Type.Object(
  {
    expirySeconds: Type.Integer({ minimum: 0, maximum: 604_800 }),
    quoteTypes: Type.Object({ SINGLETRIP: QuoteTypeSettings, MULTITRIP: QuoteTypeSettings }, Strict),
    homeCountries: Type.Array(
      Type.Object(
        {
          homeCountryCode: Code3,
          isProvinceRequiredForQuote: Type.Boolean(),
          unsupportedHomeProvinceCodes: Type.Array(Text),
          domesticTravelCoverTypeCode: Text,
          policyHolderAge: PolicyHolderAge,
          travelDuration: Type.Optional(Type.Object({ SINGLETRIP: Type.Optional(TravelDuration), MULTITRIP: Type.Optional(TravelDuration) }, Strict)),
          restrictions: Type.Object(
            { noProductCountryCodes: Type.Array(Code3), unsafeCountryCodes: Type.Array(Code3), sanctionedCountryCodes: Type.Array(Code3) },
            Strict,
          ),
        },
        Strict,
      ),
      { minItems: 1 },
    ),
  },
  Strict,
);
export type QuoteConfigFile = Static<typeof QuoteConfigFile>;
export type TravelDurationFile = Static<typeof TravelDuration>;

// catalogue/<brand>/plans.yaml
export const PlansFile = Type.Object(
  {
    plans: Type.Array(
      Type.Object(
        {
          code: Type.String({ pattern: '^[A-Z0-9]+$' }),
          quoteType: Type.Enum([...QUOTE_TYPES], { type: 'string' }),
          displayGroupId: Type.Integer({ minimum: 1, description: 'The plan\'s display group, shared by all its versions (a policy\'s `planDisplayGroupId`).' }),
          name: Text,
          translations: Type.Optional(Type.Record(Lang, Type.Object({ name: Text }, Strict))),
          policyNumberPrefix: Type.String({ pattern: '^[A-Z0-9]{1,6}$' }),
          policyNumberFormat: Text,
          underwriterCode: Text,
          homeCountryCodes: Type.Array(Code3, { minItems: 1 }),
          overrideJurisdictionCountryCode: Type.Optional(Code3),
          overrideJurisdictionProvinceCode: Type.Optional(Text),
          versions: Type.Array(
            Type.Object(
              {
                planId: Type.Integer({ minimum: 1 }),
                insuranceContractId: Type.Integer({ minimum: 1 }),
                effectiveFromDate: IsoDate,
                effectiveToDate: Type.Optional(IsoDate),
                termConditionIds: Type.Array(Type.Integer({ minimum: 1 })),
              },
              Strict,
            ),
            { minItems: 1 },
          ),
        },
        Strict,
      ),
      { minItems: 1 },
    ),
  },
  Strict,
);
export type PlansFile = Static<typeof PlansFile>;

const RuleRefundBasis = Type.Enum([...RULE_REFUND_BASES], { type: 'string', description: 'Refund of a cancellation.' });
const Fee = Type.Number({ minimum: 0, description: 'Major units of the plan currency, e.g. 25.00.' });
const CoolingOffDays = Type.Integer({ minimum: 0, maximum: 60, description: 'Days from issue; 0 = none.' });
const Allowed = Type.Boolean();
const Opt = Type.Optional;

const ServicingDefaults = Type.Object(
  {
    coolingOffDays: CoolingOffDays,
    cancellation: Type.Object({ beforeDeparture: RuleRefundBasis, afterDeparture: RuleRefundBasis, fee: Fee }, Strict),
    amendment: Type.Object(
      {
        fee: Fee,
        beforeDeparture: Type.Object({ dates: Allowed, destinations: Allowed, travellers: Allowed, options: Allowed }, Strict),
        afterDeparture: Type.Object({ extendReturnDate: Allowed }, Strict),
      },
      Strict,
    ),
  },
  Strict,
);

/** The same fields as the defaults, each optional: what one plan code changes. */
const ServicingOverride = Type.Object(
  {
    coolingOffDays: Opt(CoolingOffDays),
    cancellation: Opt(Type.Object({ beforeDeparture: Opt(RuleRefundBasis), afterDeparture: Opt(RuleRefundBasis), fee: Opt(Fee) }, Strict)),
    amendment: Opt(
      Type.Object(
        {
          fee: Opt(Fee),
          beforeDeparture: Opt(
            Type.Object({ dates: Opt(Allowed), destinations: Opt(Allowed), travellers: Opt(Allowed), options: Opt(Allowed) }, Strict),
          ),
          afterDeparture: Opt(Type.Object({ extendReturnDate: Opt(Allowed) }, Strict)),
        },
        Strict,
      ),
    ),
  },
  Strict,
);

// catalogue/<brand>/servicing.yaml
export const ServicingFile = Type.Object(
  {
    defaults: ServicingDefaults,
    plans: Opt(Type.Record(Text, ServicingOverride, { description: 'Plan code → what differs from the defaults.' })),
  },
  Strict,
);
export type ServicingFile = Static<typeof ServicingFile>;
export type ServicingOverrideFile = Static<typeof ServicingOverride>;
