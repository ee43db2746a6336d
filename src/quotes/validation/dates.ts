import { DateTime } from 'luxon';

/** Calendar arithmetic on contract dates (YYYY-MM-DD); luxon handles month ends and leap years. */

export type CalendarDate = DateTime<true>;

/** A real calendar date in exactly the form YYYY-MM-DD, or undefined. */
export function parseDate(text: string | undefined): CalendarDate | undefined {
  if (text === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const date = DateTime.fromFormat(text, 'yyyy-MM-dd', { zone: 'UTC' });
  return date.isValid ? date : undefined;
}

/** The calendar date of `now` in `timeZone` (an unknown zone falls back to UTC). */
export function quoteDateOf(now: Date, timeZone: string): CalendarDate {
  const local = DateTime.fromJSDate(now).setZone(timeZone);
  const zoned = local.isValid ? local : DateTime.fromJSDate(now, { zone: 'UTC' });
  const date = DateTime.fromObject({ year: zoned.year, month: zoned.month, day: zoned.day }, { zone: 'UTC' });
  if (!date.isValid) throw new Error('the clock gave an invalid instant');
  return date;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return Math.round(to.diff(from, 'days').days);
}

/** Days of a period with both ends included. */
export function inclusiveDays(from: CalendarDate, to: CalendarDate): number {
  return daysBetween(from, to) + 1;
}

/** Completed years between a birth date and `on` (birthdays on 29 February count from 1 March). */
export function ageOn(dateOfBirth: CalendarDate, on: CalendarDate): number {
  return Math.floor(on.diff(dateOfBirth, 'years').years);
}

export function isoDate(date: CalendarDate): string {
  return date.toFormat('yyyy-MM-dd');
}
