import { createHash } from 'node:crypto';
import type { QuoteInput } from '../quotes/schemas.js';

/**
 * What of a quote a traveller's screening is made for: destinations, dates, plan and the traveller's
 * date of birth (or age). The quote no longer matching it makes the screening STALE. Undefined when
 * the traveller is not (or no longer) on the quote.
 */
export function tripFingerprintOf(input: QuoteInput, guid: string): string | undefined {
  const holder = input.policyHolders?.find((h) => h.guid === guid);
  if (!holder) return undefined;
  const facts = [
    input.destinationCountryCodes ?? [],
    input.departureDate,
    input.returnDate,
    input.coverEndDate,
    input.planId,
  ];
  const person = [holder.dateOfBirth ?? null, holder.dateOfBirth ? null : (holder.age ?? null)];
  return createHash('sha256')
    .update(JSON.stringify([...facts, ...person]))
    .digest('base64url');
}
