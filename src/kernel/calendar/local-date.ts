import { DateTime } from 'luxon';
import { memoize } from '../cache/memoize.js';

/**
 * The contract's `LocalDate` object (spec §2.8): a date in the ISO calendar with its weekday, day
 * of year and era, as policy records show dates of birth.
 */

export const DAYS_OF_WEEK = [
  'None',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

export interface Era {
  name: string;
}

export interface CalendarSystem {
  id: string;
  name: string;
  minYear: number;
  maxYear: number;
  eras: Era[];
}

export interface LocalDate {
  calendar: CalendarSystem;
  year: number;
  month: number;
  day: number;
  dayOfWeek: DayOfWeek;
  yearOfEra: number;
  era: Era;
  dayOfYear: number;
}

/** The ISO calendar's bounds and eras, as the contract's CalendarSystem describes them. */
function isoCalendar(): CalendarSystem {
  return { id: 'ISO', name: 'ISO', minYear: -9998, maxYear: 9999, eras: [{ name: 'BCE' }, { name: 'CE' }] };
}

const ISO_DATE = /^(-?\d{4,})-(\d{2})-(\d{2})$/;

/** Dates repeat across policies (departures, birthdays); luxon spends tens of µs on each. */
const DATES_KEPT = 10_000;

/** `2026-12-01` → the contract's LocalDate object (calendar `ISO`, era `CE`, weekday, day of year); shared and frozen. */
export const localDateOf: (isoDate: string) => Readonly<LocalDate> = memoize(
  (isoDate: string) => deepFreeze(computeLocalDate(isoDate)),
  DATES_KEPT,
);

function computeLocalDate(isoDate: string): LocalDate {
  const date = DateTime.fromISO(isoDate, { zone: 'utc' });
  if (!ISO_DATE.test(isoDate) || !date.isValid) throw new RangeError(`not a calendar date: ${isoDate}`);
  const common = date.year > 0;
  return {
    calendar: isoCalendar(),
    year: date.year,
    month: date.month,
    day: date.day,
    dayOfWeek: DAYS_OF_WEEK[date.weekday],
    yearOfEra: common ? date.year : 1 - date.year,
    era: { name: common ? 'CE' : 'BCE' },
    dayOfYear: date.ordinal,
  };
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value))
    if (child !== null && typeof child === 'object') deepFreeze(child as object);
  return Object.freeze(value);
}
