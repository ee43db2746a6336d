import Big from 'big.js';
import type { Minor } from './units.js';

/**
 * Money arithmetic of the pricing engine. Amounts are integer counts of minor units (cents).
 *
 * The one rounding rule: every multiplication by a rate (a percentage, a factor) is done exactly
 * (in integers for rates of up to two decimals, in big.js decimals beyond) and rounded ONCE to a
 * whole minor unit, half to even. Amounts that must be split into parts (per traveller, per
 * item, per option) are computed on the whole first and then split with `allocate`, so the parts
 * always sum exactly to the whole.
 */

/** `amount × percentage / 100`, rounded half to even to a whole minor unit. */
export function applyPercentage(amount: Minor, percentage: number): Minor {
  if (amount === 0 || percentage === 0) return 0;
  // Fast path, exact in integers: rates with at most two decimals (nearly all of them).
  const hundredths = Math.round(percentage * 100);
  if (hundredths / 100 === percentage && Number.isSafeInteger(amount * hundredths))
    return divideHalfEven(amount * hundredths, 10_000);
  return new Big(amount).times(percentage).div(100).round(0, Big.roundHalfEven).toNumber();
}

/** `amount × factor`, rounded half to even to a whole minor unit. */
export function applyFactor(amount: Minor, factor: number): Minor {
  if (amount === 0 || factor === 0) return 0;
  const hundredths = Math.round(factor * 100);
  if (hundredths / 100 === factor && Number.isSafeInteger(amount * hundredths))
    return divideHalfEven(amount * hundredths, 100);
  return new Big(amount).times(factor).round(0, Big.roundHalfEven).toNumber();
}

/** `n / d` rounded half to even, for safe integers n ≥ 0 and d > 0 (the exact remainder decides). */
function divideHalfEven(n: number, d: number): number {
  const [q, r] = floorDivide(n, d);
  return 2 * r > d || (2 * r === d && q % 2 !== 0) ? q + 1 : q;
}

/** Exact floor quotient and remainder of safe integers: the float quotient is corrected by one. */
function floorDivide(n: number, d: number): [number, number] {
  let q = Math.floor(n / d);
  let r = n - q * d;
  if (r < 0) [q, r] = [q - 1, r + d];
  else if (r >= d) [q, r] = [q + 1, r - d];
  return [q, r];
}

/**
 * Splits `total` into parts proportional to `weights` by the largest-remainder method: each part
 * gets the floor of its exact share, and the units left over go one each to the parts with the
 * largest fractional remainders (ties: the earlier part). Parts always sum to `total`, parts of a
 * zero weight get nothing, and a part never exceeds its weight when `total` ≤ Σ weights.
 * Exact integer arithmetic (BigInt when `total × weight` exceeds 2^53). With no positive weight,
 * the whole goes to the first part (callers only allocate zero then).
 */
export function allocate(total: Minor, weights: readonly Minor[]): Minor[] {
  if (weights.length === 0) return [];
  const sumOfWeights = sum(weights);
  if (sumOfWeights === 0) return weights.map((_, i) => (i === 0 ? total : 0));
  if (!Number.isSafeInteger(total * Math.max(...weights)) || !Number.isSafeInteger(sumOfWeights))
    return allocateBig(total, weights);
  const split = weights.map((w) => floorDivide(total * w, sumOfWeights));
  const order = split.map((_, i) => i).sort((a, b) => (split[b]?.[1] ?? 0) - (split[a]?.[1] ?? 0) || a - b);
  return distribute(
    total,
    split.map(([q]) => q),
    order,
  );
}

/** The same split in BigInt, for products beyond 2^53. */
function allocateBig(total: Minor, weights: readonly Minor[]): Minor[] {
  const sumOfWeights = weights.reduce((a, w) => a + BigInt(w), 0n);
  const products = weights.map((w) => BigInt(total) * BigInt(w));
  const remainders = products.map((p) => p % sumOfWeights);
  const order = remainders
    .map((_, i) => i)
    .sort((a, b) => {
      const [ra, rb] = [remainders[a] ?? 0n, remainders[b] ?? 0n];
      return ra === rb ? a - b : ra > rb ? -1 : 1;
    });
  return distribute(
    total,
    products.map((p) => Number(p / sumOfWeights)),
    order,
  );
}

/** Adds the units the floors left over, one each, to parts in `order` (largest remainder first). */
function distribute(total: Minor, shares: Minor[], order: readonly number[]): Minor[] {
  let left = total - sum(shares);
  for (const i of order) {
    if (left <= 0) break;
    shares[i] = (shares[i] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

/** A table amount that may carry a fraction of a minor unit, rounded half to even. */
export function roundToMinor(amount: number): Minor {
  return Number.isInteger(amount) ? amount : new Big(amount).round(0, Big.roundHalfEven).toNumber();
}

/** The sum of a list of minor-unit amounts. */
export function sum(amounts: readonly Minor[]): Minor {
  return amounts.reduce((a, b) => a + b, 0);
}
