import type { BrandCode } from '../../src/kernel/brands.js';
import type { PlanSnapshot } from '../../src/policies/issue-request.js';

/**
 * What seeded policies look like per brand: currency, jurisdiction, zone and the plans sold.
 * Mirrors the demo catalogue (catalogue/<brand>/plans.yaml) closely enough for realistic rows;
 * the bench never prices these, it only stores and reads them.
 */
export interface BrandProfile {
  readonly brandCode: BrandCode;
  readonly zone: string;
  readonly home: { readonly countryCode: string; readonly countryName: string; readonly provinces: readonly string[] };
  readonly plans: readonly PlanSnapshot[];
  readonly taxes: readonly { readonly name: string; readonly percent: number }[];
}

const FORMAT = '{prefix}{country}{yy}{seq:7}';

function plan(
  id: number,
  code: string,
  description: string,
  currency: PlanSnapshot['currency'],
  prefix: string,
  country: string,
  annual = false,
): PlanSnapshot {
  return {
    planId: id,
    productId: Math.floor(id / 10),
    code,
    shortDescription: description,
    longDescription: `${description} travel insurance`,
    underwriterCode: `UW${country}`,
    isAnnualMultiTrip: annual,
    currency,
    policyNumberPrefix: prefix,
    policyNumberFormat: FORMAT,
    jurisdictionCountryCode: country,
  };
}

const AUD = { id: 36, code: 'AUD', symbol: '$', description: 'Australian dollar', minorUnits: 2 };
const NZD = { id: 554, code: 'NZD', symbol: '$', description: 'New Zealand dollar', minorUnits: 2 };
const GBP = { id: 826, code: 'GBP', symbol: '£', description: 'Pound sterling', minorUnits: 2 };

export const BRAND_PROFILES: readonly BrandProfile[] = [
  {
    brandCode: 'brandau',
    zone: 'Australia/Sydney',
    home: { countryCode: 'AU', countryName: 'Australia', provinces: ['NSW', 'VIC', 'QLD', 'WA', 'SA'] },
    plans: [
      plan(11, 'COMP', 'Comprehensive', AUD, 'BA', 'AU'),
      plan(12, 'ESSE', 'Essentials', AUD, 'BA', 'AU'),
      plan(13, 'BASIC', 'Basic', AUD, 'BA', 'AU'),
      plan(14, 'AMT', 'Annual Multi-Trip', AUD, 'BA', 'AU', true),
    ],
    taxes: [
      { name: 'GST', percent: 10 },
      { name: 'Stamp Duty', percent: 9 },
    ],
  },
  {
    brandCode: 'brandnz',
    zone: 'Pacific/Auckland',
    home: { countryCode: 'NZ', countryName: 'New Zealand', provinces: ['AUK', 'WGN', 'CAN'] },
    plans: [plan(21, 'COMP', 'Comprehensive', NZD, 'BN', 'NZ'), plan(22, 'ESSE', 'Essentials', NZD, 'BN', 'NZ')],
    taxes: [{ name: 'GST', percent: 15 }],
  },
  {
    brandCode: 'directau',
    zone: 'Australia/Brisbane',
    home: { countryCode: 'AU', countryName: 'Australia', provinces: ['QLD', 'NSW', 'VIC'] },
    plans: [plan(31, 'COMP', 'Comprehensive', AUD, 'DA', 'AU'), plan(32, 'BASIC', 'Basic', AUD, 'DA', 'AU')],
    taxes: [
      { name: 'GST', percent: 10 },
      { name: 'Stamp Duty', percent: 9 },
    ],
  },
  {
    brandCode: 'nomad',
    zone: 'Europe/London',
    home: { countryCode: 'GB', countryName: 'United Kingdom', provinces: [] },
    plans: [
      plan(41, 'EXPLORER', 'Explorer', GBP, 'NM', 'GB'),
      plan(42, 'ANNUAL', 'Annual Explorer', GBP, 'NM', 'GB', true),
    ],
    taxes: [{ name: 'Insurance Premium Tax', percent: 12 }],
  },
];

export const DESTINATIONS: readonly { readonly code: string; readonly name: string; readonly region: string }[] = [
  { code: 'IDN', name: 'Indonesia (including Bali)', region: 'Asia' },
  { code: 'NZL', name: 'New Zealand', region: 'Pacific' },
  { code: 'FJI', name: 'Fiji', region: 'Pacific' },
  { code: 'JPN', name: 'Japan', region: 'Asia' },
  { code: 'THA', name: 'Thailand', region: 'Asia' },
  { code: 'USA', name: 'United States', region: 'Worldwide' },
  { code: 'GBR', name: 'United Kingdom', region: 'Europe' },
  { code: 'FRA', name: 'France', region: 'Europe' },
  { code: 'ITA', name: 'Italy', region: 'Europe' },
  { code: 'SGP', name: 'Singapore', region: 'Asia' },
];

export const OPTIONS = [
  { optionTypeId: 1, name: 'Cruise cover' },
  { optionTypeId: 2, name: 'Snow sports' },
  { optionTypeId: 3, name: 'Rental car excess' },
];
