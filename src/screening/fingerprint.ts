import { createHash } from 'node:crypto';
import type { QuoteInput } from '../quotes/schemas.js';

const DAY_MS = 86_400_000;

/** Integer days of cover, both ends counted: to the cover's end (a multi-trip) or the return. */
export function screenedDurationDays(input: QuoteInput): number {
  const departure = input.departureDate;
  const end = input.coverEndDate ?? input.returnDate ?? departure;
  if (!departure || !end) return 1;
  return Math.round((Date.parse(end) - Date.parse(departure)) / DAY_MS) + 1;
}

/**
 * What of a trip a screening is assessed for, the one rule of both the quote (a screening no longer
 * matching is STALE) and the amendment (a change to it needs a new screening): the destinations as a
 * set, the days of cover (the assessment's premium scales with them; the same trip a week later is
 * the same risk) and the plan (its bands decide the outcome).
 */
export function screenedTripOf(input: QuoteInput): {
  destinations: string[];
  days: number;
  planId: QuoteInput['planId'] | null;
} {
  const destinations = [...new Set((input.destinationCountryCodes ?? []).map((c) => c.toUpperCase()))].sort();
  return { destinations, days: screenedDurationDays(input), planId: input.planId ?? null };
}

/**
 * A traveller's screening fingerprint: the screened trip and the traveller's date of birth (or
 * age). Undefined when the traveller is not (or no longer) on the quote.
 */
export function tripFingerprintOf(input: QuoteInput, guid: string): string | undefined {
  const holder = input.policyHolders?.find((h) => h.guid === guid);
  if (!holder) return undefined;
  const person = [holder.dateOfBirth ?? null, holder.dateOfBirth ? null : (holder.age ?? null)];
  return createHash('sha256')
    .update(JSON.stringify([screenedTripOf(input), ...person]))
    .digest('base64url');
}
