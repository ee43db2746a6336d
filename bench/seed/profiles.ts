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

export const FIRST_NAMES = [
  'Ada',
  'Charles',
  'Grace',
  'Alan',
  'Mary',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'Niklaus',
  'Radia',
  'Ken',
  'Olivia',
  'Jack',
  'Charlotte',
  'Noah',
  'Amelia',
  'William',
  'Isla',
  'Oliver',
  'Mia',
  'Thomas',
  'Ava',
  'James',
  'Sophie',
  'Lucas',
  'Chloe',
  'Henry',
  'Emily',
  'Liam',
  'Ruby',
  'Leo',
  'Zoe',
  'Ethan',
  'Mason',
  'Priya',
  'Wei',
  'Aroha',
  'Tane',
  'Mei',
  'Arjun',
  'Fatima',
  'Mohammed',
  'Sione',
  'Hannah',
  'Daniel',
  'Sarah',
  'Michael',
  'Jessica',
  'David',
  'Emma',
  'Matthew',
  'Lauren',
  'Joshua',
  'Kate',
  'Samuel',
  'Anna',
  'Benjamin',
  'Lucy',
];

/** Common surnames, most common first (drawn with weight 1/√rank: Smith about 1 in 120 people). */
export const SURNAMES = [
  'Smith',
  'Jones',
  'Williams',
  'Brown',
  'Wilson',
  'Taylor',
  'Nguyen',
  'Johnson',
  'Martin',
  'White',
  'Anderson',
  'Walker',
  'Thompson',
  'Thomas',
  'Lee',
  'Ryan',
  'Harris',
  'Robinson',
  'Kelly',
  'King',
  'Davis',
  'Wright',
  'Evans',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Patel',
  'Khan',
  'Lewis',
  'James',
  'Phillips',
  'Mitchell',
  'Campbell',
  'Turner',
  'Edwards',
  'Hughes',
  'Moore',
  'Murphy',
  'Cooper',
  'Hill',
  'Ward',
  'Morris',
  'Baker',
  'Young',
  'Collins',
  'Clark',
  'Scott',
  'Tran',
  'Le',
  'Pham',
  'Chen',
  'Wang',
  'Li',
  'Zhang',
  'Singh',
  'Kaur',
  'Sharma',
  'Ngata',
  'Tipene',
  'Te Whata',
  'Henare',
  'Parata',
  "O'Brien",
  "O'Connor",
  'McDonald',
  'MacKenzie',
  'Stewart',
  'Murray',
  'Reid',
  'Ross',
  'Watson',
  'Graham',
  'Bell',
  'Kennedy',
  'Gray',
  'Russell',
  'Ellis',
  'Lovelace',
  'Babbage',
  'Hopper',
  'Turing',
  'Somerville',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Wirth',
  'Perlman',
  'Rossi',
  'Müller',
  'García',
  'Silva',
  'Kowalski',
  'Papadopoulos',
  'Haddad',
  'Fonoti',
  'Tuilagi',
];
/** Syllables of the long tail of rarer surnames (most people's surname is not a common one). */
const SURNAME_PARTS = {
  first: [
    'Ash',
    'Bar',
    'Cal',
    'Dun',
    'El',
    'Fair',
    'Gar',
    'Hol',
    'Ing',
    'Kel',
    'Lang',
    'Mar',
    'Nor',
    'Os',
    'Pen',
    'Quin',
    'Rad',
    'Sel',
    'Thorn',
    'Ul',
    'Van',
    'Wes',
    'Yar',
    'Zel',
    'Brad',
    'Crom',
    'Dal',
    'Fitz',
    'Gil',
    'Hart',
    'Kirk',
    'Lind',
    'Mont',
    'Nash',
    'Pem',
    'Rob',
    'Stan',
    'Tal',
    'Whit',
    'Ald',
  ],
  middle: [
    '',
    'a',
    'e',
    'i',
    'o',
    'en',
    'er',
    'in',
    'ing',
    'ow',
    'ley',
    'ber',
    'ham',
    'ton',
    'wick',
    'den',
    'ford',
    'wood',
    'by',
    'croft',
  ],
  last: ['', 's', 'son', 'ton', 'ley', 'field', 'more', 'ridge', 'well', 'stone', 'ham', 'er', 'ington', 'ey', 'ett'],
};
const DOMAINS = [
  'gmail.com',
  'outlook.com',
  'yahoo.com',
  'icloud.com',
  'bigpond.com',
  'hotmail.co.uk',
  'xtra.co.nz',
  'proton.me',
];
const SURNAME_WEIGHTS = SURNAMES.map((_, rank) => 1 / Math.sqrt(rank + 1));
const SURNAME_WEIGHT_TOTAL = SURNAME_WEIGHTS.reduce((sum, w) => sum + w, 0);
/** Share of people with one of the common surnames (the rest: the long tail, about 12,000 names). */
const COMMON_SHARE = 0.15;

/** A surname as people's are spread: a few common ones, most from a long tail. */
export function drawSurname(rand: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  if (rand() >= COMMON_SHARE)
    return `${pick(SURNAME_PARTS.first)}${pick(SURNAME_PARTS.middle)}${pick(SURNAME_PARTS.last)}`;
  let left = rand() * SURNAME_WEIGHT_TOTAL;
  for (let i = 0; i < SURNAMES.length; i++) {
    left -= SURNAME_WEIGHTS[i]!;
    if (left < 0) return SURNAMES[i]!;
  }
  return SURNAMES[0]!;
}

/** An e-mail address as customers type them: name-based, often with digits, sometimes capitalised. */
export function drawEmail(rand: () => number, firstName: string, surname: string): string {
  const plain = (s: string) => s.normalize('NFD').replace(/[^A-Za-z]/g, '');
  const digits = rand() < 0.6 ? String(Math.floor(rand() * 10_000)) : '';
  const separator = ['.', '_', ''][Math.floor(rand() * 3)]!;
  const local = `${plain(firstName)}${separator}${plain(surname)}${digits}`;
  const domain = DOMAINS[Math.floor(rand() * DOMAINS.length)]!;
  return `${rand() < 0.2 ? local : local.toLowerCase()}@${domain}`;
}

const REFERENCE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A partner's booking reference (about four policies in five carry one): 8 letters and digits. */
export function drawBookingReference(rand: () => number): string | null {
  if (rand() < 0.2) return null;
  return Array.from({ length: 8 }, () => REFERENCE_LETTERS[Math.floor(rand() * REFERENCE_LETTERS.length)]).join('');
}
export const OPTIONS = [
  { optionTypeId: 1, name: 'Cruise cover' },
  { optionTypeId: 2, name: 'Snow sports' },
  { optionTypeId: 3, name: 'Rental car excess' },
];
