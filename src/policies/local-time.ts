import { DateTime, IANAZone } from 'luxon';

/**
 * Dates and times as policy records show them (spec §2.8): `LocalDate` objects in the ISO
 * calendar, `...At` instants in UTC and `...LocalDateTime` wall-clock times in the policy's
 * presentation time zone. Pure: no clock, no database.
 */

export const DAYS_OF_WEEK = ['None', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
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

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days in a month of the proleptic Gregorian calendar (as JavaScript dates and luxon count). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** `[year, month, day]` of a plain four-digit-year `YYYY-MM-DD` that is a real date, else undefined. */
export function plainDateParts(text: string): [number, number, number] | undefined {
  const match = PLAIN_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) ? [year, month, day] : undefined;
}

/** Whether `text` is a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(text: string): boolean {
  // Plain dates by arithmetic (luxon parsing was 2 % of a purchase); other years through luxon.
  if (PLAIN_DATE.test(text)) return plainDateParts(text) !== undefined;
  return ISO_DATE.test(text) && DateTime.fromISO(text, { zone: 'utc' }).isValid;
}

/**
 * Remembers the answers of a pure function of a date (and zone): luxon spends tens of µs per
 * date on zone arithmetic, and dates repeat across policies (departures, birthdays). Bounded:
 * emptied when full. Answers are frozen, since every caller shares them.
 */
function rememberedByText<A extends string[], T extends object>(compute: (...key: A) => T): (...key: A) => T {
  const answers = new Map<string, T>();
  return (...key) => {
    const text = key.join('\u0000');
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = deepFreeze(compute(...key));
      if (answers.size >= REMEMBERED_MAX) answers.clear();
      answers.set(text, answer);
    }
    return answer;
  };
}
const REMEMBERED_MAX = 10_000;

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (child !== null && typeof child === 'object') deepFreeze(child as object);
  return Object.freeze(value);
}

/** `2026-12-01` → the contract's LocalDate object (calendar `ISO`, era `CE`, weekday, day of year); shared and frozen. */
export const localDateOf: (isoDate: string) => Readonly<LocalDate> = rememberedByText((isoDate: string) => computeLocalDate(isoDate));

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

// luxon builds an Intl.DateTimeFormat per validity check (a few per cent of a purchase's CPU):
// zones found valid are remembered, up to a bound (spellings vary: Intl ignores case).
const knownZones = new Set<string>();
const KNOWN_ZONES_MAX = 1000;

export function isTimeZone(zone: string): boolean {
  if (knownZones.has(zone)) return true;
  const valid = IANAZone.isValidZone(zone);
  if (valid && knownZones.size < KNOWN_ZONES_MAX) knownZones.add(zone);
  return valid;
}

/** An instant shown both ways: UTC ISO 8601 (`Z`) and the wall-clock time in `zone` (no offset). */
export interface ZonedTimes {
  readonly at: string;
  readonly localDateTime: string;
}

function zoned(moment: DateTime): ZonedTimes {
  return {
    at: moment.toUTC().toISO({ suppressMilliseconds: false }) ?? '',
    localDateTime: moment.toISO({ includeOffset: false, suppressMilliseconds: false }) ?? '',
  };
}

function inZone(isoDate: string, zone: string): DateTime {
  const date = DateTime.fromISO(isoDate, { zone });
  if (!date.isValid) throw new RangeError(`not a date in ${zone}: ${isoDate}`);
  return date;
}

/** An instant (ISO text or Date) in `zone`. */
export function instantIn(instant: string | Date, zone: string): ZonedTimes {
  const moment = typeof instant === 'string' ? DateTime.fromISO(instant, { zone: 'utc' }) : DateTime.fromJSDate(instant, { zone: 'utc' });
  if (!moment.isValid) throw new RangeError(`not an instant: ${String(instant)}`);
  return zoned(moment.setZone(zone));
}

/** Cover starts at the first moment of the departure day in the policy's zone (DST gaps skip forward). */
export const startOfDayIn: (isoDate: string, zone: string) => ZonedTimes = rememberedByText((isoDate: string, zone: string) => zoned(inZone(isoDate, zone).startOf('day')));

/** Cover ends at 23:59:59 of the cover-end day in the policy's zone. */
export const endOfDayIn: (isoDate: string, zone: string) => ZonedTimes = rememberedByText((isoDate: string, zone: string) =>
  zoned(inZone(isoDate, zone).set({ hour: 23, minute: 59, second: 59, millisecond: 0 })),
);

/** Days of cover, both ends included: a trip departing and ending the same day is 1 day. */
export function coverDays(departureDate: string, coverEndDate: string): number {
  const from = DateTime.fromISO(departureDate, { zone: 'utc' });
  const to = DateTime.fromISO(coverEndDate, { zone: 'utc' });
  return Math.round(to.diff(from, 'days').days) + 1;
}

// One year formatter per zone (building one per call, or luxon's per-call work, was 1.6 % of a purchase).
const yearFormats = new Map<string, Intl.DateTimeFormat | undefined>();

function yearFormatOf(zone: string): Intl.DateTimeFormat | undefined {
  if (yearFormats.has(zone)) return yearFormats.get(zone);
  let format: Intl.DateTimeFormat | undefined;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', era: 'short' });
  } catch {
    format = undefined; // a zone luxon knows and Intl does not: luxon answers
  }
  if (yearFormats.size < KNOWN_ZONES_MAX) yearFormats.set(zone, format);
  return format;
}

/** The calendar year of an instant in `zone` (policy numbers carry the local issue year). */
export function yearIn(instant: Date, zone: string): number {
  const parts = yearFormatOf(zone)?.formatToParts(instant);
  const year = Number(parts?.find((p) => p.type === 'year')?.value);
  if (!parts || !Number.isInteger(year)) return DateTime.fromJSDate(instant, { zone }).year;
  // Intl counts years of an era (1 BC is year 1); luxon's are astronomical (1 BC is year 0).
  return parts.find((p) => p.type === 'era')?.value === 'BC' ? 1 - year : year;
}
