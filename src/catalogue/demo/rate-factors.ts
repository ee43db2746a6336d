import type { Campaign, OptionRateBasis, PlanRates, TaxRule } from '../../pricing/rate-tables.js';

/** Factors behind the demo rate tables (see generate-rates.ts). Money in minor units. */
export interface BrandRateSpec {
  readonly brandCode: string;
  readonly version: string;
  readonly currencyCode: string;
  readonly currencyFactor: number;
  readonly idBase: number;
  readonly plans: readonly { code: string; factor: number; annual: boolean; maxTripDays: number; rates: Omit<PlanRates, 'planCode' | 'basePrices'> }[];
  readonly taxes: TaxRule[];
  readonly campaigns: Campaign[];
  readonly partnerDiscounts: { partnerCode: string; discountPercentage: number }[];
}

const ACTIVITIES = [
  { level: 'LEVEL1', rank: 1, activityIds: [101, 102, 103, 104], pricePerTraveller: 2500 },
  { level: 'LEVEL2', rank: 2, activityIds: [105, 106, 107, 108], pricePerTraveller: 4500 },
  { level: 'LEVEL3', rank: 3, activityIds: [109, 110, 111, 112], pricePerTraveller: 7500 },
];
const ITEM_TYPES = [
  { id: 1, code: 'CAMERA', name: 'Camera' },
  { id: 2, code: 'LAPTOP', name: 'Laptop computer' },
  { id: 3, code: 'PHONE', name: 'Mobile phone' },
  { id: 4, code: 'JEWELLERY', name: 'Jewellery' },
];

function plans(scale: number, optionBase: number, annualMaxTrip: number): BrandRateSpec['plans'] {
  const m = (amount: number) => Math.round((amount * scale) / 100) * 100;
  const excess = (standard: number) => [
    { excess: 0, priceMultiplier: 1.25 },
    { excess: m(10000), priceMultiplier: 1.12 },
    { excess: m(standard), priceMultiplier: 1 },
    { excess: m(standard * 2), priceMultiplier: 0.9 },
  ];
  const option = (id: number, optionTypeCode: string, name: string, basis: OptionRateBasis, amount: number, displayOrder: number) => ({
    optionId: optionBase + id, optionTypeCode, name, basis, amount: basis === 'PERCENT_OF_BASE' ? amount : m(amount), isDefault: false, displayOrder,
  });
  const cancellation = (id: number, limits: [number, number][]) => ({
    optionId: optionBase + id,
    defaultLimit: m(limits[0]?.[0] ?? 0),
    limits: limits.map(([limit, salePrice]) => ({ limit: m(limit), salePrice: m(salePrice) })),
  });
  return [
    {
      code: 'COMP', factor: 1, annual: false, maxTripDays: 365,
      rates: {
        commissionPercentage: 30, standardExcess: m(25000), excessChoices: excess(25000), dependentPricePercentage: 0,
        basicOptions: [
          option(1, 'CRUISE', 'Cruise cover', 'PERCENT_OF_BASE', 30, 1),
          option(2, 'SNOWSPORTS', 'Snow sports', 'PER_TRAVELLER', 6500, 2),
          option(3, 'RENTALCAREXCESS', 'Rental vehicle excess', 'PER_POLICY', 4500, 3),
          option(4, 'MOTORCYCLE', 'Motorcycle and moped riding', 'PER_TRAVELLER', 3500, 4),
        ],
        adventureActivities: { optionId: optionBase + 5, levels: ACTIVITIES.map((l) => ({ ...l, pricePerTraveller: m(l.pricePerTraveller) })) },
        specifiedItems: { optionId: optionBase + 6, salePricePercentage: 5, minItemValue: m(30000), maxItemValuePerUnit: m(500000), maxItemValuePerPolicy: m(1000000), itemTypes: ITEM_TYPES },
        cancellation: cancellation(7, [[500000, 0], [1000000, 4500], [2000000, 9900], [5000000, 19900]]),
      },
    },
    {
      code: 'ESSE', factor: 0.78, annual: false, maxTripDays: 365,
      rates: {
        commissionPercentage: 30, standardExcess: m(25000), excessChoices: excess(25000), dependentPricePercentage: 0,
        basicOptions: [
          option(11, 'CRUISE', 'Cruise cover', 'PERCENT_OF_BASE', 30, 1),
          option(12, 'SNOWSPORTS', 'Snow sports', 'PER_TRAVELLER', 6500, 2),
          option(13, 'RENTALCAREXCESS', 'Rental vehicle excess', 'PER_POLICY', 4500, 3),
        ],
        adventureActivities: { optionId: optionBase + 15, levels: ACTIVITIES.slice(0, 2).map((l) => ({ ...l, pricePerTraveller: m(l.pricePerTraveller) })) },
        cancellation: cancellation(17, [[250000, 0], [500000, 3500], [1000000, 7900]]),
      },
    },
    {
      code: 'BASIC', factor: 0.55, annual: false, maxTripDays: 365,
      rates: {
        commissionPercentage: 25, standardExcess: m(50000), excessChoices: excess(50000).slice(1), dependentPricePercentage: 0,
        basicOptions: [option(21, 'CRUISE', 'Cruise cover', 'PERCENT_OF_BASE', 35, 1)],
      },
    },
    {
      code: 'AMT', factor: 1.05, annual: true, maxTripDays: annualMaxTrip,
      rates: {
        commissionPercentage: 30, standardExcess: m(25000), excessChoices: excess(25000), dependentPricePercentage: 0,
        basicOptions: [
          option(31, 'CRUISE', 'Cruise cover', 'PERCENT_OF_BASE', 25, 1),
          option(32, 'SNOWSPORTS', 'Snow sports', 'PER_TRAVELLER', 9500, 2),
          option(33, 'RENTALCAREXCESS', 'Rental vehicle excess', 'PER_POLICY', 6500, 3),
        ],
        adventureActivities: { optionId: optionBase + 35, levels: ACTIVITIES.map((l) => ({ ...l, pricePerTraveller: m(l.pricePerTraveller * 1.5) })) },
        cancellation: cancellation(37, [[1000000, 0], [2500000, 8900]]),
      },
    },
  ];
}

const AU_TAXES: TaxRule[] = [
  { taxName: 'GST', homeCountryCode: 'AUS', ratePercentage: 10, base: 'PREMIUM', order: 0 },
  ...([['NSW', 9], ['VIC', 10], ['QLD', 9], ['SA', 11], ['WA', 10], ['TAS', 10], ['NT', 10]] as const).map(([provinceCode, ratePercentage]) => ({
    taxName: `Stamp Duty (${provinceCode})`, homeCountryCode: 'AUS', provinceCode, ratePercentage, base: 'PREMIUM_AND_PRECEDING_TAXES' as const, order: 1,
  })),
];

const campaigns = (prefix: string, extra: Campaign[] = []): Campaign[] => [
  { campaignId: 1, code: `${prefix}SUMMER15`, discountPercentage: 15, validFrom: '2026-11-01', validTo: '2027-02-28', planCodes: ['COMP', 'ESSE'] },
  { campaignId: 2, code: `${prefix}EARLY10`, discountPercentage: 10, validFrom: '2026-01-01', validTo: '2026-12-31' },
  { campaignId: 3, code: 'DEMOA20', discountPercentage: 20, validFrom: '2025-07-01', validTo: '2027-06-30', partnerCodes: ['DEMOA'] },
  ...extra,
];

export const brandSpecs: BrandRateSpec[] = [
  {
    brandCode: 'brandau', version: '2026.1', currencyCode: 'AUD', currencyFactor: 1, idBase: 100_000, plans: plans(1, 1000, 45),
    taxes: AU_TAXES, campaigns: campaigns('BA'), partnerDiscounts: [{ partnerCode: 'DEMOA', discountPercentage: 5 }],
  },
  {
    brandCode: 'brandnz', version: '2026.1', currencyCode: 'NZD', currencyFactor: 1.08, idBase: 200_000, plans: plans(1, 2000, 45),
    taxes: [{ taxName: 'GST', homeCountryCode: 'NZL', ratePercentage: 15, base: 'PREMIUM', order: 0 }],
    campaigns: campaigns('BN'), partnerDiscounts: [{ partnerCode: 'DEMOA', discountPercentage: 5 }],
  },
  {
    brandCode: 'directau', version: '2026.1', currencyCode: 'AUD', currencyFactor: 0.92, idBase: 300_000, plans: plans(1, 3000, 60),
    taxes: AU_TAXES, campaigns: campaigns('DA', [{ campaignId: 4, code: 'DAFLASH25', discountPercentage: 25, validFrom: '2026-12-26', validTo: '2027-01-02', planCodes: ['BASIC'] }]),
    partnerDiscounts: [{ partnerCode: 'DEMOA', discountPercentage: 7.5 }],
  },
  {
    brandCode: 'nomad', version: '2026.1', currencyCode: 'USD', currencyFactor: 0.68, idBase: 400_000, plans: plans(0.7, 4000, 60),
    taxes: [
      { taxName: 'Insurance Premium Tax', homeCountryCode: 'GBR', ratePercentage: 12, base: 'PREMIUM', order: 0 },
      { taxName: 'Versicherungsteuer', homeCountryCode: 'DEU', ratePercentage: 19, base: 'PREMIUM', order: 0 },
      { taxName: "Taxe spéciale sur les conventions d'assurance", homeCountryCode: 'FRA', ratePercentage: 9, base: 'PREMIUM', order: 0 },
      { taxName: 'Impuesto sobre las Primas de Seguros', homeCountryCode: 'ESP', ratePercentage: 8, base: 'PREMIUM', order: 0 },
      { taxName: 'Assurantiebelasting', homeCountryCode: 'NLD', ratePercentage: 21, base: 'PREMIUM', order: 0 },
      { taxName: 'GST', homeCountryCode: 'SGP', ratePercentage: 9, base: 'PREMIUM', order: 0 },
      { taxName: 'VAT', homeCountryCode: 'ZAF', ratePercentage: 15, base: 'PREMIUM', order: 0 },
      { taxName: 'Tax on insurance premiums (QC)', homeCountryCode: 'CAN', provinceCode: 'QC', ratePercentage: 9, base: 'PREMIUM', order: 0 },
      { taxName: 'Retail sales tax on insurance (ON)', homeCountryCode: 'CAN', provinceCode: 'ON', ratePercentage: 8, base: 'PREMIUM', order: 0 },
    ],
    campaigns: campaigns('NM'), partnerDiscounts: [{ partnerCode: 'DEMOA', discountPercentage: 5 }],
  },
];
