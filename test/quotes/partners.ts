import type { BrandCode } from '../../src/kernel/brands.js';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';

/** Headers of a request by partner A's or B's user of `brandCode` (a real bearer token). */
export function asPartner(t: TestApp, brandCode: BrandCode, partner: 'A' | 'B' = 'A'): Promise<Record<string, string>> {
  return bearerFor(t, brandCode, partner);
}
