import { currencyFacts } from './currency.js';

/**
 * Minor and major units. The engine and the database hold integer minor units (cents); the
 * contract's doubles are major units. One conversion, one place.
 */

/** An integer count of minor units of a currency. */
export type Minor = number;

/** Fields of the price types (spec §2.2) that are amounts; ids, ages, percentages and orders are not. */
const MONEY_FIELDS = new Set([
  'standardExcess',
  'netListPrice',
  'saleListPrice',
  'saleListCommission',
  'netCampaignDiscount',
  'saleCampaignDiscount',
  'salePartnerDiscount',
  'taxAmount',
  'optionCoverageAmount',
  'minNetListPrice',
  'maxNetListPrice',
  'maxItemValuePerPolicy',
  'minSaleListPrice',
  'maxSaleListPrice',
  'minItemValue',
  'maxItemValuePerUnit',
  'totalPrice',
  'campaignDiscount',
  'partnerDiscount',
  'price',
]);

/** Decimal places of a currency's minor unit (AUD 2, JPY 0), from the runtime's ISO 4217 data. */
export function minorDigits(currencyCode: string): number {
  return currencyFacts(currencyCode).minorDigits;
}

/** Whole minor units up to this size divide to the double nearest their decimal value. */
const WHOLE_LIMIT = 1e12;

/** Minor units → the contract's double (12345, 2 → 123.45). */
export function toMajor(minor: Minor, digits: number): number {
  // Such a division already is what the decimal text round trip below gives (units.test.ts), at
  // a fraction of its cost; `+ 0` turns -0 into 0 as the text does.
  if (Number.isInteger(minor) && Math.abs(minor) <= WHOLE_LIMIT && digits >= 0 && digits <= 4)
    return minor / 10 ** digits + 0;
  return Number((minor / 10 ** digits).toFixed(digits));
}

/** The contract's double → minor units, rounded half up (19.99, 2 → 1999). */
export function toMinor(major: number, digits: number): Minor {
  return Math.round(major * 10 ** digits);
}

/** A deep copy of a price structure with every amount field converted to major units. */
export function pricesToMajor<T>(value: T, digits: number): T {
  return convert(value, digits) as T;
}

function convert(node: unknown, digits: number): unknown {
  if (Array.isArray(node)) return node.map((child) => convert(child, digits));
  if (node === null || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const child = source[key];
    const value = typeof child === 'number' && MONEY_FIELDS.has(key) ? toMajor(child, digits) : convert(child, digits);
    // An own `__proto__` key stays a key (plain assignment would set the prototype).
    if (key === '__proto__')
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}
