import type { Notification } from '../../kernel/notifications/notification.js';
import type { DurationRules } from '../ports.js';
import type { QuoteInput, QuoteType } from '../schemas.js';
import {
  daysBetween,
  inclusiveDays,
  isMonthsAfter,
  isoDate,
  parseDate,
  plusDays,
  plusMonths,
  type CalendarDate,
} from '../../kernel/calendar/dates.js';
import { problem } from '../../kernel/notifications/problems.js';

/** The quote input's trip dates, in the order they are judged. */
export const TRIP_DATES = [
  'departureDate',
  'returnDate',
  'coverEndDate',
] as const satisfies readonly (keyof QuoteInput)[];
export type TripDate = (typeof TRIP_DATES)[number];

export interface TripFacts extends Record<TripDate, string> {
  coverDays: number;
  longestTripDays: number;
}

function dateField(input: QuoteInput, field: TripDate, out: Notification[]): CalendarDate | undefined {
  const text = input[field];
  if (text === undefined) return undefined;
  const date = parseDate(text);
  if (!date)
    out.push(problem('INVALID_DATE', `${field} is not a real date in the form YYYY-MM-DD.`, `input.${field}`, text));
  return date;
}

/**
 * Dates valid and in order, advance purchase, durations. Single trip: cover is departure to
 * return. Multi-trip: cover runs from departure to `coverEndDate` (default one year), and
 * departure to return is the longest single trip.
 */
export function validateTrip(
  input: QuoteInput,
  quoteType: QuoteType,
  rules: DurationRules | undefined,
  quoteDate: CalendarDate,
  out: Notification[],
): TripFacts | undefined {
  const departure = dateField(input, 'departureDate', out);
  const ret = dateField(input, 'returnDate', out);
  const coverEndInput = dateField(input, 'coverEndDate', out);

  if (departure && rules) {
    const ahead = daysBetween(quoteDate, departure);
    if (ahead < 0) {
      out.push(
        problem(
          'DEPARTURE_IN_PAST',
          'departureDate is before the quote date.',
          'input.departureDate',
          input.departureDate,
          { quoteDate: isoDate(quoteDate) },
        ),
      );
    } else if (ahead < rules.minAdvancePurchaseDays) {
      out.push(
        problem(
          'DEPARTURE_TOO_SOON',
          `departureDate must be at least ${rules.minAdvancePurchaseDays} days after the quote date.`,
          'input.departureDate',
          input.departureDate,
          { min: rules.minAdvancePurchaseDays },
        ),
      );
    } else if (ahead > rules.maxAdvancePurchaseDays) {
      out.push(
        problem(
          'DEPARTURE_TOO_FAR_AHEAD',
          `departureDate can be at most ${rules.maxAdvancePurchaseDays} days after the quote date.`,
          'input.departureDate',
          input.departureDate,
          { max: rules.maxAdvancePurchaseDays },
        ),
      );
    }
  }
  if (!departure || !ret) return undefined;
  if (ret.epochDay < departure.epochDay) {
    out.push(
      problem('RETURN_BEFORE_DEPARTURE', 'returnDate is before departureDate.', 'input.returnDate', input.returnDate),
    );
    return undefined;
  }
  const tripDays = inclusiveDays(departure, ret);
  const coverEnd = quoteType === 'MULTITRIP' ? (coverEndInput ?? plusDays(plusMonths(departure, 12), -1)) : ret;
  if (quoteType === 'MULTITRIP' && coverEnd.epochDay < ret.epochDay) {
    out.push(
      problem('RETURN_AFTER_COVER_END', 'returnDate is after coverEndDate.', 'input.returnDate', input.returnDate),
    );
    return undefined;
  }
  const coverDays = inclusiveDays(departure, coverEnd);
  if (rules) {
    const coverProperty = quoteType === 'MULTITRIP' ? 'input.coverEndDate' : 'input.returnDate';
    const coverValue = quoteType === 'MULTITRIP' ? isoDate(coverEnd) : input.returnDate;
    if (coverDays < rules.minTravelDurationDays) {
      out.push(
        problem(
          'DURATION_TOO_SHORT',
          `Cover must last at least ${rules.minTravelDurationDays} days.`,
          coverProperty,
          coverValue,
          { min: rules.minTravelDurationDays, days: coverDays },
        ),
      );
    }
    if (coverDays > rules.maxTravelDurationDays) {
      out.push(
        problem(
          'DURATION_TOO_LONG',
          `Cover can last at most ${rules.maxTravelDurationDays} days.`,
          coverProperty,
          coverValue,
          { max: rules.maxTravelDurationDays, days: coverDays },
        ),
      );
    } else if (isMonthsAfter(coverEnd, departure, rules.maxTravelDurationMonths)) {
      out.push(
        problem(
          'DURATION_TOO_LONG_MONTHS',
          `Cover can last at most ${rules.maxTravelDurationMonths} months.`,
          coverProperty,
          coverValue,
          { maxMonths: rules.maxTravelDurationMonths },
        ),
      );
    }
    if (quoteType === 'MULTITRIP' && tripDays > rules.maxTripDurationDays) {
      out.push(
        problem(
          'TRIP_TOO_LONG',
          `A single trip can last at most ${rules.maxTripDurationDays} days.`,
          'input.returnDate',
          input.returnDate,
          { max: rules.maxTripDurationDays, days: tripDays },
        ),
      );
    }
  }
  return {
    departureDate: isoDate(departure),
    returnDate: isoDate(ret),
    coverEndDate: isoDate(coverEnd),
    coverDays,
    longestTripDays: tripDays,
  };
}
