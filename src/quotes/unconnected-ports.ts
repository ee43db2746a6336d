import { Unavailable } from '../errors.js';
import type { QuotePorts } from './ports.js';

/**
 * Ports used when the app is built without a catalogue and pricing engine connected: every
 * quote request answers 503 `CATALOGUE_UNAVAILABLE` rather than pricing from made-up data.
 * MERGE: `src/app.ts` replaces these with adapters over `src/catalogue/` and `src/pricing/`.
 */
export function unconnectedQuotePorts(): QuotePorts {
  const fail = (): Promise<never> => Promise.reject(new Unavailable('CATALOGUE_UNAVAILABLE', 'Quotes cannot be priced right now; try again later.'));
  return {
    catalogue: {
      quoteConfiguration: () => fail(),
      destinations: () => fail(),
      plans: () => fail(),
      campaign: () => fail(),
      versionInForce: () => fail(),
    },
    pricing: { priceQuote: () => fail() },
  };
}
