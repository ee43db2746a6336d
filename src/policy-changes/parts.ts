/**
 * The money of a policy transaction split into its parts, in integer minor units of the policy
 * currency, signed: positive when the customer pays, negative when refunded. `discount` is
 * taken off, so `total = premium − discount + Σ taxes + donation + Σ fees`; every function here
 * keeps that sum exact (parts are computed one by one, the total is their sum, never rounded on
 * its own). Pure.
 */
export interface NamedAmount {
  readonly name: string;
  readonly amount: number;
}

export interface Parts {
  readonly premium: number;
  readonly discount: number;
  readonly taxes: readonly NamedAmount[];
  readonly donation: number;
  readonly fees: readonly NamedAmount[];
  readonly total: number;
}

const sumOf = (amounts: readonly NamedAmount[]) => amounts.reduce((sum, a) => sum + a.amount, 0);

/** The parts with their total computed from them. */
export function partsOf(parts: Omit<Parts, 'total'>): Parts {
  const total = parts.premium - parts.discount + sumOf(parts.taxes) + parts.donation + sumOf(parts.fees);
  return { ...parts, total };
}

export const NO_PARTS: Parts = partsOf({ premium: 0, discount: 0, taxes: [], donation: 0, fees: [] });

/** Named amounts merged by name (first-seen order), zeros kept so a tax that went away still shows. */
function mergeNamed(lists: readonly (readonly NamedAmount[])[], sign: (i: number) => number): NamedAmount[] {
  const byName = new Map<string, number>();
  lists.forEach((list, i) => {
    for (const { name, amount } of list) byName.set(name, (byName.get(name) ?? 0) + sign(i) * amount);
  });
  return [...byName].map(([name, amount]) => ({ name, amount }));
}

/** What several transactions come to together (e.g. what a policy has paid so far). */
export function sumParts(all: readonly Parts[]): Parts {
  return partsOf({
    premium: all.reduce((s, p) => s + p.premium, 0),
    discount: all.reduce((s, p) => s + p.discount, 0),
    taxes: mergeNamed(
      all.map((p) => p.taxes),
      () => 1,
    ),
    donation: all.reduce((s, p) => s + p.donation, 0),
    fees: mergeNamed(
      all.map((p) => p.fees),
      () => 1,
    ),
  });
}

/** `next − paid`, part by part: what a change charges (positive) or refunds (negative). */
export function difference(next: Parts, paid: Parts): Parts {
  return partsOf({
    premium: next.premium - paid.premium,
    discount: next.discount - paid.discount,
    taxes: mergeNamed([next.taxes, paid.taxes], (i) => (i === 0 ? 1 : -1)),
    donation: next.donation - paid.donation,
    // Fees paid earlier are never given back by a later change: only this change's own fees count.
    fees: next.fees,
  });
}

/** Every part turned around (a full refund of `paid`, fees included). */
export function negate(parts: Parts): Parts {
  // `0 - x`, not `-x`: a zero part stays 0 (never -0, which deep equality and Object.is tell apart).
  const minus = (amount: number) => 0 - amount;
  const flip = (list: readonly NamedAmount[]) => list.map((a) => ({ name: a.name, amount: minus(a.amount) }));
  return partsOf({
    premium: minus(parts.premium),
    discount: minus(parts.discount),
    taxes: flip(parts.taxes),
    donation: minus(parts.donation),
    fees: flip(parts.fees),
  });
}

/** `amount × numerator / denominator` for amount ≥ 0, exact in integers, rounded once half to even. */
function share(amount: number, numerator: number, denominator: number): number {
  const n = amount * numerator;
  const q = Math.floor(n / denominator);
  const r = n - q * denominator;
  return 2 * r > denominator || (2 * r === denominator && q % 2 !== 0) ? q + 1 : q;
}

/**
 * Each part times `numerator / denominator` (e.g. unused days / cover days), rounded once per part
 * with the pricing engine's rule (half to even, docs/pricing.md); fees are left out (`fees: []`).
 * The total is the sum of the parts.
 */
export function scaled(parts: Parts, numerator: number, denominator: number): Parts {
  if (denominator <= 0 || numerator < 0 || numerator > denominator) throw new RangeError('scaled: not a fraction 0..1');
  const scale = (amount: number) => Math.sign(amount) * share(Math.abs(amount), numerator, denominator);
  return partsOf({
    premium: scale(parts.premium),
    discount: scale(parts.discount),
    taxes: parts.taxes.map((t) => ({ name: t.name, amount: scale(t.amount) })),
    donation: scale(parts.donation),
    fees: [],
  });
}

/** The parts with one more fee (e.g. an amendment or cancellation fee). */
export function withFee(parts: Parts, fee: NamedAmount): Parts {
  if (fee.amount === 0) return parts;
  return partsOf({ ...parts, fees: [...parts.fees, fee] });
}

/**
 * The share of a transaction that comes to exactly `total` (same sign, no larger: e.g. the part
 * of a refund that went through): every part, fees too, times `total / parts.total`, rounded half
 * to even; the rounding's remainder (a few minor units at most) is taken on the premium.
 */
export function portion(parts: Parts, total: number): Parts {
  if (parts.total === 0 || total / parts.total < 0 || Math.abs(total) > Math.abs(parts.total))
    throw new RangeError('portion: not a share of the total');
  const [numerator, denominator] = [Math.abs(total), Math.abs(parts.total)];
  const scale = (amount: number) => Math.sign(amount) * share(Math.abs(amount), numerator, denominator);
  const shared = partsOf({
    premium: scale(parts.premium),
    discount: scale(parts.discount),
    taxes: parts.taxes.map((t) => ({ name: t.name, amount: scale(t.amount) })),
    donation: scale(parts.donation),
    fees: parts.fees.map((f) => ({ name: f.name, amount: scale(f.amount) })),
  });
  return partsOf({ ...shared, premium: shared.premium + total - shared.total });
}
