import type { CatalogueReader } from '../catalogue/reader.js';
import type { FlowDeps } from './flow.js';
import type { QuoteScreenings } from '../quotes/ports.js';
import type { QuoteInput } from '../quotes/schemas.js';
import type { StoredQuote } from '../quotes/stored-quote.js';
import type { ApprovalTerms } from '../referrals/model.js';
import type { TravellerScreening } from '../screening/model.js';

/** What a purchase is handed: the money flow's collaborators, the catalogue, the screenings and the referrals. */
export interface PurchaseDeps extends FlowDeps {
  readonly catalogue: CatalogueReader;
  /** The travellers' medical screenings of a quote (TravelClear). */
  readonly screenings: QuoteScreenings;
  /** The quote's referral (src/referrals/): refuses with a 409 before anything is recorded, or the approval's terms. */
  readonly referrals: PurchaseReferrals;
}

/** What a purchase asks the referrals area (referrals/service.ts `referralForPurchase`). */
export interface PurchaseReferrals {
  approvalFor(request: {
    quote: StoredQuote;
    input: QuoteInput;
    screenings: readonly TravellerScreening[];
    priced: boolean;
  }): Promise<ApprovalTerms | undefined>;
}
