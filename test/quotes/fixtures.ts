import type { BrandCode } from '../../src/kernel/brands.js';
import type { TravellerScreening } from '../../src/screening/model.js';
import type {
  CampaignInfo,
  Destination,
  PlanVersion,
  PricedPlan,
  PricingOutcome,
  QuotePricingRequest,
  QuoteCatalogue,
  QuoteConfiguration,
  QuotePorts,
  QuotePricing,
} from '../../src/quotes/ports.js';
import type { QuoteType } from '../../src/quotes/schemas.js';

/**
 * In-test catalogue and pricing behind the quotes ports: a small, realistic slice of `brandau`
 * (Australian residents, AUD, GST and NSW stamp duty) and `brandnz`. Not the real engine: just
 * enough rating to check that the quotes area carries prices through faithfully.
 */

export const NOW = new Date('2026-11-22T00:00:00Z'); // 11:00 on 22 November in Sydney

const AU_RULES = {
  duration: {
    homeCountryCode: 'AUS',
    minAdvancePurchaseDays: 0,
    maxAdvancePurchaseDays: 548,
    defaultTravelDurationDays: 14,
    minTravelDurationDays: 1,
    maxTravelDurationDays: 548,
    maxTravelDurationMonths: 18,
    maxTripDurationDays: 60,
  },
  age: {
    homeCountryCode: 'AUS',
    minTravellers: 1,
    maxTravellers: 10,
    minDependents: 0,
    maxDependents: 10,
    minTravellerAge: 18,
    maxTravellerAge: 99,
    minDependentAge: 0,
    maxDependentAge: 21,
    ageLimitTypeCode: 'AGEATQUOTE',
    maxPolicyHolders: 20,
  },
  restriction: {
    homeCountryCode: 'AUS',
    isProvinceRequiredForQuote: true,
    noProductCountryCodes: ['AFG'],
    unsafeCountryCodes: ['UKR'],
    sanctionedCountryCodes: ['PRK', 'SYR'],
    unsupportedHomeProvinceCodes: ['NFK'],
  },
};

export function configurationFor(brandCode: BrandCode, quoteType: QuoteType): QuoteConfiguration | undefined {
  if (brandCode !== 'brandau' && brandCode !== 'brandnz') return undefined;
  const multi = quoteType === 'MULTITRIP';
  const home = brandCode === 'brandau' ? 'AUS' : 'NZL';
  const duration = {
    ...AU_RULES.duration,
    homeCountryCode: home,
    ...(multi ? { maxTravelDurationDays: 366, maxTravelDurationMonths: 12 } : {}),
  };
  return {
    minTravellers: 1,
    maxTravellers: 10,
    minDependents: 0,
    maxDependents: 10,
    maxPolicyHolders: 20,
    maxTripValuePerTraveller: 30000,
    travelDurationConfigs: [duration],
    policyHolderAgeConfigs: [{ ...AU_RULES.age, homeCountryCode: home }],
    travelRestrictionConfigs: [
      { ...AU_RULES.restriction, homeCountryCode: home, isProvinceRequiredForQuote: home === 'AUS' },
    ],
    timeZone: brandCode === 'brandau' ? 'Australia/Sydney' : 'Pacific/Auckland',
    currencyCode: brandCode === 'brandau' ? 'AUD' : 'NZD',
  };
}

export const DESTINATIONS: Destination[] = [
  { code: 'IDN', name: 'Indonesia (including Bali)', regionCode: 'ASIA' },
  { code: 'NZL', name: 'New Zealand', regionCode: 'PACIFIC' },
  { code: 'AUS', name: 'Australia', regionCode: 'PACIFIC' },
  { code: 'USA', name: 'United States', regionCode: 'WORLDWIDE' },
  { code: 'UKR', name: 'Ukraine', regionCode: 'WORLDWIDE' },
  { code: 'PRK', name: 'North Korea', regionCode: 'ASIA' },
  { code: 'SYR', name: 'Syria', regionCode: 'WORLDWIDE' },
  { code: 'AFG', name: 'Afghanistan', regionCode: 'WORLDWIDE' },
];

export const PLANS: PlanVersion[] = [
  {
    planId: 101,
    code: 'COMP',
    name: 'Comprehensive',
    quoteType: 'SINGLETRIP',
    homeCountryCodes: ['AUS'],
    effectiveFromDate: '2026-07-01',
  },
  {
    planId: 100,
    code: 'COMP',
    name: 'Comprehensive (2025)',
    quoteType: 'SINGLETRIP',
    homeCountryCodes: ['AUS'],
    effectiveFromDate: '2025-07-01',
    effectiveToDate: '2026-06-30',
  },
  {
    planId: 102,
    code: 'ESSENTIALS',
    name: 'Essentials',
    quoteType: 'SINGLETRIP',
    homeCountryCodes: ['AUS'],
    effectiveFromDate: '2026-07-01',
  },
  {
    planId: 103,
    code: 'BASIC',
    name: 'Basic',
    quoteType: 'SINGLETRIP',
    homeCountryCodes: ['AUS'],
    effectiveFromDate: '2026-07-01',
  },
  {
    planId: 201,
    code: 'AMT',
    name: 'Annual Multi-Trip',
    quoteType: 'MULTITRIP',
    homeCountryCodes: ['AUS'],
    effectiveFromDate: '2026-07-01',
  },
  {
    planId: 301,
    code: 'NZCOMP',
    name: 'Comprehensive NZ',
    quoteType: 'SINGLETRIP',
    homeCountryCodes: ['NZL'],
    effectiveFromDate: '2026-07-01',
  },
];

export const CAMPAIGNS: CampaignInfo[] = [
  {
    campaignId: 7,
    code: 'SUMMER10',
    discountPercentage: 10,
    validFrom: '2026-11-01',
    validTo: '2027-02-28',
    partnerCodes: ['PARTNERA'],
  },
  { campaignId: 8, code: 'WINTER15', discountPercentage: 15, validFrom: '2026-06-01', validTo: '2026-08-31' },
];

const REGION_FACTOR: Record<string, number> = { PACIFIC: 1, ASIA: 1.4, WORLDWIDE: 2.2 };
const PLAN_RATE: Record<string, number> = { COMP: 900, ESSENTIALS: 600, BASIC: 350, AMT: 4000, NZCOMP: 800 }; // cents per adult per day band unit
const AGE_FACTOR = (age: number) => (age < 50 ? 1 : age < 70 ? 1.6 : 2.8);

/** A minimal rating: adult base by plan × highest region × days × age; dependents free; GST then NSW stamp duty. */
function pricePlan(plan: PlanVersion, request: QuotePricingRequest): PricedPlan {
  const region = Math.max(...request.regionCodes.map((r) => REGION_FACTOR[r] ?? 1));
  const days = Math.min(request.longestTripDays, 60);
  const details = request.travellers.map((t) => {
    const sale = t.isDependent
      ? 0
      : Math.round((PLAN_RATE[plan.code] ?? 500) * region * Math.ceil(days / 7) * AGE_FACTOR(t.age));
    const campaign = request.campaign ? Math.round((sale * request.campaign.discountPercentage) / 100) : 0;
    return {
      age: t.age,
      ageRangeId: t.age < 50 ? 1 : t.age < 70 ? 2 : 3,
      saleListPrice: sale,
      netListPrice: Math.round(sale * 0.7),
      saleListCommission: sale - Math.round(sale * 0.7),
      saleCampaignDiscount: campaign,
      netCampaignDiscount: 0,
      salePartnerDiscount: 0,
    };
  });
  const sale = details.reduce((s, d) => s + d.saleListPrice, 0);
  const campaign = details.reduce((s, d) => s + d.saleCampaignDiscount, 0);
  const premium = sale - campaign;
  const gst = Math.round(premium * 0.1);
  const taxes = [{ taxName: 'GST', taxRatePercentage: 10, taxAmount: gst }];
  if (request.homeCountryCode === 'AUS' && request.provinceCode === 'NSW')
    taxes.push({ taxName: 'Stamp Duty (NSW)', taxRatePercentage: 9, taxAmount: Math.round((premium + gst) * 0.09) });
  const taxTotal = taxes.reduce((s, t) => s + t.taxAmount, 0);
  const cruise = request.basicOptions.find((o) => o.optionType === 'CRUISE' && o.isOptedIn) ? 5000 : 0;
  const optionPriceResults = cruise
    ? [{ optionId: 11, optionTypeCode: 'CRUISE', saleListPrice: cruise, isOptionExplicit: true, isDefault: false }]
    : [];
  return {
    planId: plan.planId,
    result: {
      planId: plan.planId,
      standardExcess: 25000,
      campaignId: request.campaign?.campaignId,
      campaignDiscountPercentage: request.campaign?.discountPercentage ?? 0,
      basePriceResult: {
        planId: plan.planId,
        saleListPrice: sale,
        netListPrice: details.reduce((s, d) => s + d.netListPrice, 0),
        saleCampaignDiscount: campaign,
        taxComponents: taxes,
        priceDetails: details,
      },
      optionPriceResults,
    },
    summary: {
      planId: plan.planId,
      totalPrice: premium + taxTotal + cruise,
      standardExcess: 25000,
      campaignDiscountPercentage: request.campaign?.discountPercentage ?? 0,
      campaignDiscount: campaign,
      partnerDiscount: 0,
      basePrice: { price: premium + taxTotal, campaignDiscount: campaign, partnerDiscount: 0, taxComponents: taxes },
      basicOptionPrices: cruise
        ? [
            {
              optionId: 11,
              optionType: 'CRUISE',
              price: cruise,
              campaignDiscount: 0,
              partnerDiscount: 0,
              displayOrder: 1,
            },
          ]
        : [],
    },
  };
}

const OPTION_TYPES = ['CRUISE', 'SNOWSPORTS', 'RENTALCAREXCESS'];

export interface FixturePorts extends QuotePorts {
  /** Change to simulate a new catalogue or rate version coming into force. */
  version: string;
  /** Every pricing request seen, newest last. */
  readonly pricingRequests: QuotePricingRequest[];
  /** The screenings `screenings.ofQuote` answers for any quote (push to simulate the screening area). */
  readonly travellerScreenings: TravellerScreening[];
}

export function fixturePorts(): FixturePorts {
  const pricingRequests: QuotePricingRequest[] = [];
  const state = { version: 'brand-2026.11-rates-7' };
  const catalogue: QuoteCatalogue = {
    quoteConfiguration: (brandCode, quoteType) => Promise.resolve(configurationFor(brandCode, quoteType)),
    destinations: (_brand, codes) => Promise.resolve(DESTINATIONS.filter((d) => codes.includes(d.code))),
    plans: (brandCode, quoteType) =>
      Promise.resolve(
        brandCode === 'brandau' || brandCode === 'brandnz' ? PLANS.filter((p) => p.quoteType === quoteType) : [],
      ),
    campaign: (_brand, code) => Promise.resolve(CAMPAIGNS.find((c) => c.code === code.toUpperCase())),
    versionInForce: () => Promise.resolve(state.version),
  };
  const pricing: QuotePricing = {
    priceQuote: (request): Promise<PricingOutcome> => {
      pricingRequests.push(request);
      const notifications = request.basicOptions.flatMap((o, i) =>
        OPTION_TYPES.includes(o.optionType)
          ? []
          : [
              {
                code: 'OPTION_NOT_OFFERED',
                message: 'No plan offers this option.',
                property: `input.basicOptions[${i}].optionType`,
                value: o.optionType,
                title: 'error',
              },
            ],
      );
      return Promise.resolve({
        currencyCode: request.homeCountryCode === 'NZL' ? 'NZD' : 'AUD',
        plans: request.plans.map((p) => pricePlan(p, request)),
        notifications,
      });
    },
  };
  const screenings: TravellerScreening[] = [];
  return {
    catalogue,
    pricing,
    pricingRequests,
    travellerScreenings: screenings,
    screenings: { ofQuote: () => Promise.resolve([...screenings]) },
    get version() {
      return state.version;
    },
    set version(value: string) {
      state.version = value;
    },
  };
}

export { baliTrip } from './bali-trip.js';
