/**
 * Money crosses the HTTP boundary here: the engine and the database hold integer minor units,
 * the contract's doubles are major units. One conversion, one place.
 */

/** Fields of the price types (spec §2.2) that are amounts; ids, ages, percentages and orders are not. */
const MONEY_FIELDS = new Set([
  'standardExcess', 'netListPrice', 'saleListPrice', 'saleListCommission', 'netCampaignDiscount', 'saleCampaignDiscount',
  'salePartnerDiscount', 'taxAmount', 'optionCoverageAmount', 'minNetListPrice', 'maxNetListPrice', 'maxItemValuePerPolicy',
  'minSaleListPrice', 'maxSaleListPrice', 'minItemValue', 'maxItemValuePerUnit', 'totalPrice', 'campaignDiscount',
  'partnerDiscount', 'price',
]);

const digitsByCurrency = new Map<string, number>();

/** Decimal places of a currency's minor unit (AUD 2, JPY 0), from the runtime's ISO 4217 data. */
export function minorDigits(currencyCode: string): number {
  // Building a currency formatter costs more than the rest of a price conversion: once per code.
  let digits = digitsByCurrency.get(currencyCode);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency: currencyCode }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    // Bounded: codes come from the catalogue, but a malformed one must not grow the map for ever.
    if (digitsByCurrency.size < 1000) digitsByCurrency.set(currencyCode, digits);
  }
  return digits;
}

export function toMajor(minor: number, digits: number): number {
  return Number((minor / 10 ** digits).toFixed(digits));
}

export function toMinor(major: number, digits: number): number {
  return Math.round(major * 10 ** digits);
}

/** A deep copy of a price structure with every amount field converted to major units. */
export function pricesToMajor<T>(value: T, digits: number): T {
  const convert = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(convert);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, child]) => [key, typeof child === 'number' && MONEY_FIELDS.has(key) ? toMajor(child, digits) : convert(child)]),
    );
  };
  return convert(value) as T;
}
