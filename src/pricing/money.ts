import Big from 'big.js';

/**
 * Money arithmetic of the pricing engine. Amounts are integer counts of minor units (cents).
 *
 * The one rounding rule: every multiplication by a rate (a percentage, a factor) is done exactly
 * in decimal (big.js) and rounded ONCE to a whole minor unit, half to even. Amounts that must be
 * split into parts (per traveller, per item, per option) are computed on the whole first and then
 * split with `allocate`, so the parts always sum exactly to the whole.
 */

/** An integer count of minor units of the rate table's currency. */
export type Minor = number;

/** `amount × percentage / 100`, rounded half to even to a whole minor unit. */
export function applyPercentage(amount: Minor, percentage: number): Minor {
  if (amount === 0 || percentage === 0) return 0;
  return new Big(amount).times(percentage).div(100).round(0, Big.roundHalfEven).toNumber();
}

/** `amount × factor`, rounded half to even to a whole minor unit. */
export function applyFactor(amount: Minor, factor: number): Minor {
  if (amount === 0 || factor === 0) return 0;
  return new Big(amount).times(factor).round(0, Big.roundHalfEven).toNumber();
}

/**
 * Splits `total` into parts proportional to `weights` by the largest-remainder method: each part
 * gets the floor of its exact share, and the units left over go one each to the parts with the
 * largest fractional remainders (ties: the earlier part). Parts always sum to `total`, parts of a
 * zero weight get nothing, and a part never exceeds its weight when `total` ≤ Σ weights.
 * Exact in BigInt, since `total × weight` can exceed 2^53. With no positive weight, the whole goes
 * to the first part (callers only allocate zero then).
 */
export function allocate(total: Minor, weights: readonly Minor[]): Minor[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((a, w) => a + BigInt(w), 0n);
  if (sum === 0n) return weights.map((_, i) => (i === 0 ? total : 0));
  const whole = BigInt(total);
  const shares = weights.map((w) => (whole * BigInt(w)) / sum);
  const remainders = weights.map((w, i) => ({ i, r: (whole * BigInt(w)) % sum }));
  let left = Number(whole - shares.reduce((a, s) => a + s, 0n));
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const parts = shares.map(Number);
  for (const { i } of remainders) {
    if (left <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}

/** A table amount that may carry a fraction of a minor unit, rounded half to even. */
export function roundToMinor(amount: number): Minor {
  return Number.isInteger(amount) ? amount : new Big(amount).round(0, Big.roundHalfEven).toNumber();
}

/** The sum of a list of minor-unit amounts. */
export function sum(amounts: readonly Minor[]): Minor {
  return amounts.reduce((a, b) => a + b, 0);
}

/**
 * Digits after the decimal point of a currency (ISO 4217 minor-unit exponent: AUD 2, JPY 0,
 * KWD 3), from the runtime's ICU data. Unknown codes fall back to 2.
 */
export function currencyExponent(currencyCode: string): number {
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency: currencyCode }).resolvedOptions()
      .maximumFractionDigits;
    return digits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units → the contract's double (12345, 2 → 123.45). Integer ÷ 10^e is correctly rounded. */
export function minorToMajor(amount: Minor, exponent: number): number {
  return amount / 10 ** exponent;
}

/** The contract's double → minor units (123.455, 2 → 12346), half to even; `amount` must be finite. */
export function majorToMinor(amount: number, exponent: number): Minor {
  return new Big(amount).times(new Big(10).pow(exponent)).round(0, Big.roundHalfEven).toNumber();
}
