import { afterAll, afterEach } from 'vitest';
import { takeMismatches } from './taps.js';

/**
 * Set up for every test file (vitest.config.ts `setupFiles`): an answer that disagrees with the
 * OpenAPI document fails the test that received it (one received after the last test fails the file).
 */
function failOnMismatches(): void {
  const found = takeMismatches();
  if (found.length > 0)
    throw new Error(`${String(found.length)} answer(s) disagree with the OpenAPI document:\n${found.join('\n')}`);
}

afterEach(failOnMismatches);
afterAll(failOnMismatches);
