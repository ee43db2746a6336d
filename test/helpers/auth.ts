import type { TestApp } from './app.js';
import type { BrandCode } from '../../src/brands.js';

/**
 * Headers that authenticate a request as a partner user of `brandCode` in the given test app.
 * Until the identity area lands this returns no headers (nothing is protected yet).
 */
export function bearerFor(_t: TestApp, _brandCode: BrandCode, _partner: 'A' | 'B' = 'A'): Promise<Record<string, string>> {
  return Promise.resolve({});
}
