import { DateTime } from 'luxon';

/**
 * Calendar arithmetic on contract dates (YYYY-MM-DD) in plain integers: a date is its fields and
 * its day number, so order and differences are subtraction. The rules are luxon's, which this
 * module used before (kept by property tests against luxon): adding months or years keeps the
 * day of month, clamped to the last day of a shorter month (31 Jan + 1 month = 28/29 Feb,
 * 29 Feb + 1 year = 28 Feb).
 */
export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** Days since 1970-01-01 (proleptic Gregorian calendar). */
  readonly epochDay: number;
}

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month of the proleptic Gregorian calendar (as JavaScript dates and luxon count). */
function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Day number of a valid date (H. Hinnant's days_from_civil). */
function epochDayOf(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The date of a day number (civil_from_days). */
function fromEpochDay(epochDay: number): CalendarDate {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day, epochDay };
}

export function dateOf(year: number, month: number, day: number): CalendarDate {
  return { year, month, day, epochDay: epochDayOf(year, month, day) };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in exactly the form YYYY-MM-DD (four-digit year), or undefined. */
export function parseDate(text: string | undefined): CalendarDate | undefined {
  if (text === undefined) return undefined;
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return dateOf(year, month, day);
}

const ISO_DATE = /^(-?\d{4,})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar date written `YYYY-MM-DD` (years beyond four digits and before 0 through luxon). */
export function isIsoDate(text: string): boolean {
  // Plain dates by arithmetic (luxon parsing was 2 % of a purchase); other years through luxon.
  if (DATE.test(text)) return parseDate(text) !== undefined;
  return ISO_DATE.test(text) && DateTime.fromISO(text, { zone: 'utc' }).isValid;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return to.epochDay - from.epochDay;
}

/** Days of a period with both ends included. */
export function inclusiveDays(from: CalendarDate, to: CalendarDate): number {
  return daysBetween(from, to) + 1;
}

/** `date` plus whole `months` (negative: minus); the day clamps to the end of a shorter month. */
export function plusMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return dateOf(year, month, Math.min(date.day, daysInMonth(year, month)));
}

export function plusDays(date: CalendarDate, days: number): CalendarDate {
  return fromEpochDay(date.epochDay + days);
}

/**
 * Whether `date` is on or after `from` plus `months` calendar months. Catalogue month counts are
 * whole; any other count is left to luxon, whose reading of a fraction of a month this keeps.
 */
export function isMonthsAfter(date: CalendarDate, from: CalendarDate, months: number): boolean {
  if (Number.isInteger(months) && Math.abs(months) <= 12_000) return date.epochDay >= plusMonths(from, months).epochDay;
  return toLuxon(date) >= toLuxon(from).plus({ months });
}

function toLuxon(date: CalendarDate): DateTime {
  return DateTime.fromObject({ year: date.year, month: date.month, day: date.day }, { zone: 'UTC' });
}

/**
 * Completed years between a birth date and `on`: the years added to the birth date (clamped as
 * above, so a 29 February birthday falls on 28 February in other years) without passing `on`.
 * Negative when `on` is earlier, rounded down as luxon's fractional difference was.
 */
export function ageOn(dateOfBirth: CalendarDate, on: CalendarDate): number {
  const later = on.epochDay >= dateOfBirth.epochDay;
  const [from, to] = later ? [dateOfBirth, on] : [on, dateOfBirth];
  let years = to.year - from.year;
  let reached = plusMonths(from, years * 12);
  if (reached.epochDay > to.epochDay) {
    years -= 1;
    reached = plusMonths(from, years * 12);
  }
  if (later) return years;
  return reached.epochDay === to.epochDay ? -years : -years - 1;
}

export function isoDate(date: CalendarDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/**
 * Whole years from `from` to `to` (YYYY-MM-DD), counted as luxon's diff does: `ageOn` for plain
 * dates in order (luxon was 2.6 % of a purchase), luxon itself otherwise.
 */
export function wholeYears(from: string, to: string): number {
  const a = parseDate(from);
  const b = parseDate(to);
  if (!a || !b || b.epochDay < a.epochDay)
    return Math.floor(DateTime.fromISO(to).diff(DateTime.fromISO(from), 'years').years);
  return ageOn(a, b);
}

/** Days of cover, both ends included: a trip departing and ending the same day is 1 day. */
export function coverDays(departureDate: string, coverEndDate: string): number {
  const from = DateTime.fromISO(departureDate, { zone: 'utc' });
  const to = DateTime.fromISO(coverEndDate, { zone: 'utc' });
  return Math.round(to.diff(from, 'days').days) + 1;
}
