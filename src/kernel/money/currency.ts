import { memoize } from '../cache/memoize.js';

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
const CODES_KEPT = 1000;

function orElse<T>(read: () => T | undefined, fallback: T): T {
  try {
    return read() ?? fallback;
  } catch {
    return fallback; // RangeError: not a well-formed currency code
  }
}

export const currencyFacts: (code: string) => CurrencyFacts = memoize(
  (code: string): CurrencyFacts =>
    Object.freeze({
      code,
      symbol: orElse(
        () =>
          new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' })
            .formatToParts(0)
            .find((p) => p.type === 'currency')?.value,
        code,
      ),
      description: orElse(() => new Intl.DisplayNames(['en'], { type: 'currency' }).of(code), code),
      minorDigits: orElse(
        () =>
          new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits,
        2,
      ),
    }),
  CODES_KEPT,
);

/** An en-US number format with exactly `digits` decimals ("1,234.50"), one per digit count. */
export const amountFormat: (digits: number) => Intl.NumberFormat = memoize(
  (digits: number) => new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  CODES_KEPT,
);

/**
 * An amount as text in `language`: its digits and separators, then either the currency's narrow
 * symbol where the language puts it followed by its code, which says which dollar (`symbol-and-code`:
 * "$1,236.25 AUD", "1236,25 $ AUD"; documents), or the code alone (`code`: "AUD 1,236.25",
 * "1236,25 AUD"; e-mails). `minor` in the currency's minor units, `digits` of them.
 */
export const amountTextIn: (
  language: string,
  code: string,
  digits: number,
  display?: 'symbol-and-code' | 'code',
) => (minor: number) => string = memoize(
  (language: string, code: string, digits: number, display: 'symbol-and-code' | 'code' = 'symbol-and-code') => {
    const format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency: code,
      currencyDisplay: display === 'code' ? 'code' : 'narrowSymbol',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    const symbol = format.formatToParts(0).find((p) => p.type === 'currency')?.value;
    return (minor: number) => {
      const text = format.format(minor / 10 ** digits);
      return symbol === code ? text : `${text} ${code}`;
    };
  },
  CODES_KEPT,
);
