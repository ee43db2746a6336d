import type { ServicingRules } from '../catalogue/model.js';
import type { RefundBasis } from '../catalogue/refund-basis.js';
import {
  coverDays as coverDaysOf,
  inclusiveDays,
  isoDate,
  parseDate,
  plusDays,
  type CalendarDate,
} from '../kernel/calendar/dates.js';
import { dateIn, endOfDayIn, instantIn } from '../kernel/calendar/zones.js';
import type { Notification } from '../kernel/notifications/notification.js';
import { problem } from '../kernel/notifications/problems.js';
import type { QuoteInput } from '../quotes/schemas.js';
import { changesOf, repeatedGuids, type Change } from './input-changes.js';
import { negate, NO_PARTS, scaled, withFee, type Parts } from './parts.js';

/**
 * What the catalogue's servicing rules make of a cancellation or an amendment of one policy. Pure:
 * the caller passes the policy's facts and `today` in the policy's zone.
 */

/** The names of the fees a change charges, as its transaction records them (documents translate them). */
export const CANCELLATION_FEE = 'Cancellation fee';
export const AMENDMENT_FEE = 'Amendment fee';

export interface CancellationFacts {
  /** ISO instant the policy was issued. */
  readonly issuedAt: string;
  /** IANA zone of the policy (its home country or province). */
  readonly zone: string;
  /** YYYY-MM-DD in `zone`. */
  readonly today: string;
  /**
   * YYYY-MM-DD, today ≤ effectiveDate ≤ max(today, departureDate): the first day without cover. On or
   * before departure no cover is used (the before-departure rules, cooling-off included); after, it is.
   */
  readonly effectiveDate: string;
  readonly departureDate: string;
  /** Last day of cover of the current detail. */
  readonly coverEndDate: string;
  /** What the policy has paid so far (the sum of its transactions). */
  readonly paid: Parts;
}

export interface CancellationTerms {
  readonly basis: RefundBasis;
  /** End of the last cooling-off day (issue date + coolingOffDays) in the zone; the issue instant when there is none. */
  readonly coolingOffEndsAt: string;
  readonly coverDays: number;
  /** Days of cover from max(effectiveDate, departureDate) to coverEndDate, both included. */
  readonly unusedDays: number;
  /** Signed parts: negative = refunded to the customer; total ≤ 0. */
  readonly refund: Parts;
}

function dateOrThrow(text: string, name: string): CalendarDate {
  const date = parseDate(text);
  if (!date) throw new RangeError(`cancellationTerms: ${name} is not a date: ${text}`);
  return date;
}

/** How a cancellation of the policy on `effectiveDate` is refunded. */
export function cancellationTerms(rules: ServicingRules, facts: CancellationFacts): CancellationTerms {
  const today = dateOrThrow(facts.today, 'today');
  const departure = dateOrThrow(facts.departureDate, 'departureDate');
  const coverEnd = dateOrThrow(facts.coverEndDate, 'coverEndDate');
  const effective = dateOrThrow(facts.effectiveDate, 'effectiveDate');
  const issueDate = dateOrThrow(dateIn(new Date(facts.issuedAt), facts.zone), 'issuedAt');
  // Cooling-off runs `coolingOffDays` full days after the issue day (the customer-favourable reading).
  const lastCoolingOffDay = plusDays(issueDate, rules.coolingOffDays);
  const coolingOffEndsAt =
    rules.coolingOffDays > 0
      ? endOfDayIn(isoDate(lastCoolingOffDay), facts.zone).at
      : instantIn(facts.issuedAt, facts.zone).at;
  const cover = coverDaysOf(facts.departureDate, facts.coverEndDate);
  if (cover < 1) throw new RangeError('cancellationTerms: cover ends before departure');
  const from = effective.epochDay > departure.epochDay ? effective : departure;
  const unusedDays = Math.max(0, inclusiveDays(from, coverEnd));
  // Judged on the effective date: no day of cover used (it takes effect by departure) is a cancellation before departure.
  const beforeDeparture = effective.epochDay <= departure.epochDay;
  const terms = { coolingOffEndsAt, coverDays: cover, unusedDays };
  if (rules.coolingOffDays > 0 && beforeDeparture && today.epochDay <= lastCoolingOffDay.epochDay) {
    return { basis: 'COOLING_OFF', ...terms, refund: negate(facts.paid) };
  }
  const basis = beforeDeparture ? rules.cancellation.beforeDeparture : rules.cancellation.afterDeparture;
  if (basis === 'NONE') return { basis, ...terms, refund: NO_PARTS };
  const share = negate(scaled(facts.paid, unusedDays, cover));
  // The fee only reduces a refund: it never makes the customer pay.
  const fee = Math.max(0, Math.min(rules.cancellation.feeMinor, -share.total));
  return { basis, ...terms, refund: withFee(share, { name: CANCELLATION_FEE, amount: fee }) };
}

export interface AmendmentFacts {
  /** Whether the cover has started (today ≥ departure date in the policy's zone). */
  readonly departed: boolean;
  readonly current: QuoteInput;
  readonly next: QuoteInput;
}

const NOT_ALLOWED = 'AMENDMENT_NOT_ALLOWED';
const NOT_CHANGEABLE = 'FIELD_NOT_CHANGEABLE';
const NOT_EXTENDED = 'RETURN_DATE_NOT_EXTENDED';

/** The field a trip is extended by after departure: the return date, or the cover end of a multi-trip policy. */
function extendableField(current: QuoteInput): 'returnDate' | 'coverEndDate' {
  return current.quoteType === 'MULTITRIP' ? 'coverEndDate' : 'returnDate';
}

/** Why `next` may not replace `current` under the rules; empty when the amendment is allowed. */
export function amendmentProblems(rules: ServicingRules, { departed, current, next }: AmendmentFacts): Notification[] {
  const extendable = extendableField(current);
  // A guid names one traveller: repeated, it could add one (or hide a new birth date) unnoticed.
  const duplicates = repeatedGuids(next).map(({ guid, index }) =>
    problem('DUPLICATE_GUID', 'Each traveller needs a guid of their own.', `input.policyHolders[${index}].guid`, guid, {
      guid,
    }),
  );
  return [
    ...duplicates,
    ...changesOf(current, next).flatMap((change) => judge(rules, departed, extendable, change, current, next)),
  ];
}

function judge(
  rules: ServicingRules,
  departed: boolean,
  extendable: 'returnDate' | 'coverEndDate',
  change: Change,
  current: QuoteInput,
  next: QuoteInput,
): Notification[] {
  const property = `input.${change.path}`;
  const tokens = { field: change.field };
  if (change.kind === 'fixed') {
    return [
      problem(NOT_CHANGEABLE, `${change.field} cannot be changed on an issued policy.`, property, change.value, tokens),
    ];
  }
  const notAllowed = () => [
    problem(
      NOT_ALLOWED,
      `Changing ${change.field} is not allowed for this policy now.`,
      property,
      change.value,
      tokens,
    ),
  ];
  if (!departed) return change.kind === 'other' || rules.amendment.beforeDeparture[change.kind] ? [] : notAllowed();
  if (
    change.field === extendable ||
    (extendable === 'returnDate' && change.field === 'coverEndDate' && next.coverEndDate === next.returnDate)
  ) {
    if (!rules.amendment.afterDeparture.extendReturnDate) return notAllowed();
    const before = current[change.field];
    const after = next[change.field];
    if (change.field === extendable && (!after || !before || after <= before)) {
      return [problem(NOT_EXTENDED, `After departure ${change.field} may only move later.`, property, after, tokens)];
    }
    return [];
  }
  return notAllowed();
}
