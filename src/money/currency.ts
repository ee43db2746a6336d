import { setBounded } from '../bounded-map.js';

/** What the runtime's ISO 4217 data says about a currency: quotes, purchases and policies all ask. */
export interface CurrencyFacts {
  readonly code: string;
  /** Narrow symbol (AUD `$`, EUR `€`); the code itself when the runtime has none. */
  readonly symbol: string;
  /** English name ("Australian Dollar"); the code itself when the runtime has none. */
  readonly description: string;
  /** Decimal places of the minor unit (AUD 2, JPY 0); 2 for a code the runtime cannot read. */
  readonly minorDigits: number;
}

// Building Intl formatters costs more than the rest of a price conversion or a policy summary
// (docs/performance.md), so each code is read once. Codes come from the catalogue; the bound
// only keeps a malformed stream of them from growing the map for ever.
const CAPACITY = 1000;
const factsByCode = new Map<string, CurrencyFacts>();
const amountFormats = new Map<number, Intl.NumberFormat>();

function orElse<T>(read: () => T | undefined, fallback: T): T {
  try {
    return read() ?? fallback;
  } catch {
    return fallback; // RangeError: not a well-formed currency code
  }
}

export function currencyFacts(code: string): CurrencyFacts {
  let facts = factsByCode.get(code);
  if (facts === undefined) {
    facts = Object.freeze({
      code,
      symbol: orElse(
        () => new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' }).formatToParts(0).find((p) => p.type === 'currency')?.value,
        code,
      ),
      description: orElse(() => new Intl.DisplayNames(['en'], { type: 'currency' }).of(code), code),
      minorDigits: orElse(() => new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits, 2),
    });
    setBounded(factsByCode, code, facts, CAPACITY);
  }
  return facts;
}

/** An en-US number format with exactly `digits` decimals ("1,234.50"), one per digit count. */
export function amountFormat(digits: number): Intl.NumberFormat {
  let format = amountFormats.get(digits);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    setBounded(amountFormats, digits, format, CAPACITY);
  }
  return format;
}
