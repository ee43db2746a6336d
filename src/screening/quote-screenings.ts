import type { Db } from '../db/database.js';
import type { QuoteInput } from '../quotes/schemas.js';
import { tripFingerprintOf } from './fingerprint.js';
import type { TravellerScreening } from './model.js';
import { screeningsOfQuoteRows } from './repository.js';

/**
 * The screenings of a quote as the quote, purchase and policy see them, judged against
 * `against.input`: the input being evaluated (a revision) or the one stored (a purchase). A
 * screening made for other destinations, days of cover, plan, traveller or catalogue version reads STALE;
 * without `against`, as completed. The caller has established the quote is the asking partner's.
 */
export async function travellerScreeningsOf(
  deps: { readonly db: Db; readonly secret: string },
  quoteId: string,
  against: { readonly input: QuoteInput; readonly catalogueVersion?: string } | undefined,
): Promise<TravellerScreening[]> {
  // Only a traveller who opted in has a screening that counts: none opted in, nothing to read.
  const optedIn = (against?.input.policyHolders ?? []).some(
    (h) => h.travelClearOption?.isOptedInForScreening === true || h.travelClearOption?.isOptedInForCover === true,
  );
  if (against !== undefined && !optedIn) return [];
  const stored = await screeningsOfQuoteRows(deps.db, deps.secret, quoteId);
  return stored.map((s) => {
    const stale =
      against !== undefined &&
      (tripFingerprintOf(against.input, s.travellerGuid) !== s.tripFingerprint ||
        (against.catalogueVersion !== undefined && against.catalogueVersion !== s.catalogueVersion));
    return {
      travellerGuid: s.travellerGuid,
      status: stale ? 'STALE' : s.status,
      ...(s.result
        ? {
            reference: s.result.referenceNumber,
            screenedAt: s.result.screeningDate,
            assessment: s.result.assessment,
          }
        : {}),
      ...(s.authorizedPerson ? { authorizedPerson: s.authorizedPerson } : {}),
    };
  });
}
