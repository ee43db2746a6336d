import { DateTime, IANAZone } from 'luxon';
import { dateOf, parseDate, type CalendarDate } from './dates.js';
import { memoize } from '../cache/memoize.js';

/**
 * Instants and IANA time zones: the calendar date of an instant in a zone, an instant shown both
 * in UTC and on a zone's wall clock, the first and last moment of a day there. Pure: the caller
 * passes `now`. Answers that cost luxon or Intl tens of µs are remembered (`memoize`): zones and
 * dates repeat across requests.
 */

/** Zones and (zone, date) pairs remembered; zones come from the catalogue, dates repeat across policies. */
const ZONES_KEPT = 1000;
const DAYS_KEPT = 10_000;

/** Whether `zone` is an IANA zone name luxon knows (luxon builds an Intl formatter per check). */
export const isTimeZone: (zone: string) => boolean = memoize((zone: string) => IANAZone.isValidZone(zone), ZONES_KEPT);

const dateFormatIn = memoize(
  (timeZone: string) =>
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ZONES_KEPT,
);

/** The calendar date of `instant` in `timeZone`, as YYYY-MM-DD; throws for a zone Intl does not know. */
export function dateIn(instant: Date, timeZone: string): string {
  return dateFormatIn(timeZone).format(instant);
}

/** The calendar date of `now` in `timeZone` (a zone Intl does not know: luxon's reading of it, else UTC). */
export function calendarDateIn(now: Date, timeZone: string): CalendarDate {
  if (Number.isNaN(now.getTime())) throw new Error('the clock gave an invalid instant');
  let text: string;
  try {
    text = dateIn(now, timeZone);
  } catch {
    // Not an IANA zone Intl knows: luxon's reading of it (offsets like `UTC+10`, else UTC), as before.
    const local = DateTime.fromJSDate(now).setZone(timeZone);
    const zoned = local.isValid ? local : DateTime.fromJSDate(now, { zone: 'UTC' });
    return dateOf(zoned.year, zoned.month, zoned.day);
  }
  const date = parseDate(text);
  if (!date) throw new Error(`unexpected date format from Intl: ${text}`);
  return date;
}

/** The instant the calendar date in `timeZone` next changes after `instant` (epoch ms); the same for every instant of a day. */
export const nextMidnightIn: (instant: Date, timeZone: string) => number = memoize(
  (instant: Date, timeZone: string) =>
    DateTime.fromJSDate(instant, { zone: timeZone }).startOf('day').plus({ days: 1 }).toMillis(),
  ZONES_KEPT,
  (instant, timeZone) => `${timeZone} ${dateIn(instant, timeZone)}`,
);

/** An instant shown both ways: UTC ISO 8601 (`Z`) and the wall-clock time in `zone` (no offset). */
export interface ZonedTimes {
  readonly at: string;
  readonly localDateTime: string;
}

function zoned(moment: DateTime): ZonedTimes {
  return Object.freeze({
    at: moment.toUTC().toISO({ suppressMilliseconds: false }) ?? '',
    localDateTime: moment.toISO({ includeOffset: false, suppressMilliseconds: false }) ?? '',
  });
}

function inZone(isoDate: string, zone: string): DateTime {
  const date = DateTime.fromISO(isoDate, { zone });
  if (!date.isValid) throw new RangeError(`not a date in ${zone}: ${isoDate}`);
  return date;
}

/** An instant (ISO text or Date) in `zone`. */
export function instantIn(instant: string | Date, zone: string): ZonedTimes {
  const moment =
    typeof instant === 'string'
      ? DateTime.fromISO(instant, { zone: 'utc' })
      : DateTime.fromJSDate(instant, { zone: 'utc' });
  if (!moment.isValid) throw new RangeError(`not an instant: ${String(instant)}`);
  return zoned(moment.setZone(zone));
}

/** The first moment of a day in `zone` (DST gaps skip forward); shared and frozen. */
export const startOfDayIn: (isoDate: string, zone: string) => ZonedTimes = memoize(
  (isoDate: string, zone: string) => zoned(inZone(isoDate, zone).startOf('day')),
  DAYS_KEPT,
);

/** 23:59:59 of a day in `zone`; shared and frozen. */
export const endOfDayIn: (isoDate: string, zone: string) => ZonedTimes = memoize(
  (isoDate: string, zone: string) =>
    zoned(inZone(isoDate, zone).set({ hour: 23, minute: 59, second: 59, millisecond: 0 })),
  DAYS_KEPT,
);

// One year formatter per zone (building one per call, or luxon's per-call work, was 1.6 % of a purchase).
const yearFormatOf = memoize((zone: string): Intl.DateTimeFormat | undefined => {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', era: 'short' });
  } catch {
    return undefined; // a zone luxon knows and Intl does not: luxon answers
  }
}, ZONES_KEPT);

/** The calendar year of an instant in `zone` (policy numbers carry the local issue year). */
export function yearIn(instant: Date, zone: string): number {
  const parts = yearFormatOf(zone)?.formatToParts(instant);
  const year = Number(parts?.find((p) => p.type === 'year')?.value);
  if (!parts || !Number.isInteger(year)) return DateTime.fromJSDate(instant, { zone }).year;
  // Intl counts years of an era (1 BC is year 1); luxon's are astronomical (1 BC is year 0).
  return parts.find((p) => p.type === 'era')?.value === 'BC' ? 1 - year : year;
}
