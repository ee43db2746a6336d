import { catalogueOf } from '../catalogue/service.js';
import type { AppContext } from '../context.js';
import { catalogueQuotePort } from './catalogue-port.js';
import type { QuotePorts, QuoteReferrals, QuoteScreenings } from './ports.js';
import type { Executor } from '../db/database.js';
import { quoteReferralsFor } from '../referrals/quote-port.js';
import { enginePricingPort } from './pricing-port.js';
import { travellerScreeningsOf } from '../screening/quote-screenings.js';

/** The ports of a running app: the shared in-memory catalogue and the rating engine. */
export function quotePortsFor(context: AppContext): QuotePorts {
  const reader = catalogueOf(context);
  return {
    catalogue: catalogueQuotePort(reader),
    pricing: enginePricingPort(reader),
    screenings: screeningsFor(context),
  };
}

/** The travellers' screenings of a stored quote (the screening area's), for the quotes and purchase areas. */
export function screeningsFor(context: AppContext): QuoteScreenings {
  const deps = { db: context.db, secret: context.config.auth.keyEncryptionSecret };
  return { ofQuote: (quoteId, against) => travellerScreeningsOf(deps, quoteId, against) };
}

/** The referral rules over the quotes of a running app (src/referrals/); `db` a seeding's transaction. */
export function referralsFor(context: AppContext, db: Executor = context.db): QuoteReferrals {
  return quoteReferralsFor({ db, catalogue: catalogueOf(context) });
}
