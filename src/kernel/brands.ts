/** The contract's four brand codes; every path carries one of them. */
export const BRAND_CODES = ['brandau', 'brandnz', 'directau', 'nomad'] as const;
export type BrandCode = (typeof BRAND_CODES)[number];

export function isBrandCode(value: string): value is BrandCode {
  return (BRAND_CODES as readonly string[]).includes(value);
}
