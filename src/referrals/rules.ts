import { createHash } from 'node:crypto';
import type { ReferralRule } from '../catalogue/referrals.js';
import { wholeYears } from '../kernel/calendar/dates.js';
import type { QuoteInput } from '../quotes/schemas.js';
import { screenedDurationDays } from '../screening/fingerprint.js';
import type { TravellerOutcome } from '../screening/model.js';
import { isOpen, type Referral } from './model.js';

/** The referral rules judged (pure: the caller gathers the facts; no I/O, no clock). */

/** What the rules look at, gathered by the caller. */
export interface ReferralFacts {
  readonly input: QuoteInput;
  /** The quote date (YYYY-MM-DD, brand zone): ages from dates of birth are taken at it. */
  readonly quoteDate: string;
  /** Minor units of the quote currency, per major unit of `input.tripValue`. */
  readonly minorPerMajor: number;
  /** The completed screenings' traveller outcomes (health details never reach here). */
  readonly screeningOutcomes: readonly TravellerOutcome[];
  /** Whether a traveller of the quote holds an issued, active policy of the brand over these dates. */
  readonly hasDuplicatePolicy: boolean;
}

const ageOf = (holder: NonNullable<QuoteInput['policyHolders']>[number], quoteDate: string): number | undefined => {
  if (holder.dateOfBirth) {
    const years = wholeYears(holder.dateOfBirth, quoteDate);
    if (Number.isFinite(years)) return years;
  }
  return holder.age;
};

function fires(rule: ReferralRule, facts: ReferralFacts): boolean {
  const holders = facts.input.policyHolders ?? [];
  switch (rule.kind) {
    case 'TRIP_VALUE_PER_TRAVELLER': {
      const value = facts.input.tripValue ?? 0;
      return holders.length > 0 && Math.round((value * facts.minorPerMajor) / holders.length) > rule.aboveMinor;
    }
    case 'TRAVELLER_AGE':
      return holders.some((h) => (ageOf(h, facts.quoteDate) ?? 0) > rule.aboveYears);
    case 'SCREENING_REFERRED':
      return facts.screeningOutcomes.includes('REFERRED');
    case 'DUPLICATE_POLICY':
      return facts.hasDuplicatePolicy;
    case 'DESTINATION_WATCH_LIST': {
      const codes = (facts.input.destinationCountryCodes ?? []).map((c) => c.toUpperCase());
      return rule.destinations.some((d) => codes.includes(d));
    }
  }
}

/** The reason codes of the rules that fire, in the rules' order, each once. */
export function firedReasons(rules: readonly ReferralRule[], facts: ReferralFacts): string[] {
  return [...new Set(rules.filter((rule) => fires(rule, facts)).map((rule) => rule.reasonCode))];
}

/** Whether the rules need the duplicate-policy look-up (a database read) for this input. */
export function needsDuplicateCheck(rules: readonly ReferralRule[], input: QuoteInput): boolean {
  return rules.some((r) => r.kind === 'DUPLICATE_POLICY') && namedTravellers(input).length > 0;
}

/** The travellers a duplicate is looked for: those with both names and a date of birth. */
export function namedTravellers(input: QuoteInput): { firstName: string; lastName: string; dateOfBirth: string }[] {
  return (input.policyHolders ?? []).flatMap((h) =>
    h.firstName?.trim() && h.lastName?.trim() && h.dateOfBirth
      ? [{ firstName: h.firstName.trim(), lastName: h.lastName.trim(), dateOfBirth: h.dateOfBirth }]
      : [],
  );
}

/**
 * What a referral judged: the destinations as a set, the departure date and days of cover, the
 * plan, the trip value and each traveller's date of birth (or age). A change to any of them is a
 * new question for the underwriter; names, contact details and declarations are not.
 */
export function referralFingerprint(input: QuoteInput): string {
  const destinations = [...new Set((input.destinationCountryCodes ?? []).map((c) => c.toUpperCase()))].sort();
  const travellers = (input.policyHolders ?? []).map((h) => (h.dateOfBirth ? h.dateOfBirth : (h.age ?? null)));
  const judged = [
    destinations,
    input.departureDate ?? null,
    screenedDurationDays(input),
    input.planId ?? null,
    input.tripValue ?? null,
    travellers,
  ];
  return createHash('sha256').update(JSON.stringify(judged)).digest('base64url');
}

/** What a judgement does to the stored referral of a quote. */
export type ReferralChange =
  /** Nothing stored changes. */
  | { readonly kind: 'keep' }
  /** (Re)open: REFERRED with these reasons and the new fingerprint; decision fields cleared; `quote.referred`. */
  | { readonly kind: 'open'; readonly reasonCodes: readonly string[] }
  /** The rules no longer fire on a quote still waiting: the open referral is dropped. */
  | { readonly kind: 'drop' };

/**
 * The change a judgement makes, from the stored referral (if any), the reasons that fire now and
 * the quote's fingerprint now. A decision stands while the fingerprint is the one decided and no
 * new reason fires; a change after approval that still fires a rule refers the quote again.
 */
export function referralChange(
  existing: Pick<Referral, 'status' | 'reasonCodes' | 'fingerprint'> | undefined,
  fired: readonly string[],
  fingerprint: string,
): ReferralChange {
  if (existing && existing.fingerprint === fingerprint) {
    const covered = fired.every((code) => existing.reasonCodes.includes(code));
    if (isOpen(existing.status)) {
      if (fired.length === 0) return { kind: 'drop' };
      const same = covered && fired.length === existing.reasonCodes.length;
      return same ? { kind: 'keep' } : { kind: 'open', reasonCodes: fired };
    }
    // APPROVED, DECLINED, WITHDRAWN: the decision stands unless a reason it did not see fires.
    return covered || existing.status !== 'APPROVED' ? { kind: 'keep' } : { kind: 'open', reasonCodes: fired };
  }
  if (fired.length > 0) return { kind: 'open', reasonCodes: fired };
  return existing && isOpen(existing.status) ? { kind: 'drop' } : { kind: 'keep' };
}

/** Whether the stored referral applies to a quote whose fingerprint is `fingerprint` now. */
export const appliesTo = (referral: Pick<Referral, 'fingerprint'> | undefined, fingerprint: string): boolean =>
  referral !== undefined && referral.fingerprint === fingerprint;
