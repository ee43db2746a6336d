import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  ageOn,
  daysBetween,
  isMonthsAfter,
  isoDate,
  parseDate,
  plusDays,
  plusMonths,
  type CalendarDate,
} from './dates.js';
import { calendarDateIn } from './zones.js';

/** The luxon implementation these functions replaced: the reference they must agree with. */
const luxon = {
  parseDate(text: string): DateTime | undefined {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
    const date = DateTime.fromFormat(text, 'yyyy-MM-dd', { zone: 'UTC' });
    return date.isValid ? date : undefined;
  },
  quoteDateOf(now: Date, timeZone: string): DateTime {
    const local = DateTime.fromJSDate(now).setZone(timeZone);
    const zoned = local.isValid ? local : DateTime.fromJSDate(now, { zone: 'UTC' });
    return DateTime.fromObject({ year: zoned.year, month: zoned.month, day: zoned.day }, { zone: 'UTC' });
  },
  of: (d: CalendarDate) => DateTime.fromObject({ year: d.year, month: d.month, day: d.day }, { zone: 'UTC' }),
};

const DAY_MS = 86_400_000;
/** The same date in both worlds: fields, ISO text, day number against luxon's instant. */
function expectSame(ours: CalendarDate | undefined, theirs: DateTime | undefined): void {
  expect(ours === undefined).toBe(theirs === undefined);
  if (!ours || !theirs) return;
  expect(isoDate(ours)).toBe(theirs.toFormat('yyyy-MM-dd'));
  expect([ours.year, ours.month, ours.day]).toEqual([theirs.year, theirs.month, theirs.day]);
  expect(ours.epochDay * DAY_MS).toBe(theirs.toMillis());
}

const dateText = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc.constantFrom(
    '2024-02-29',
    '2023-02-29',
    '2000-02-29',
    '1900-02-29',
    '0000-02-29',
    '0004-02-29',
    '9999-12-31',
    '0000-01-01',
    '2026-11-22 ',
    '2026-1-01',
    '+2026-01-01',
  ),
  fc.string({ maxLength: 12 }),
);
const calendarDate = fc
  .integer({ min: -30_000, max: 60_000 })
  .map((n) => plusDays(parseDate('1970-01-01') as CalendarDate, n));
const nearFeb29 = fc
  .tuple(fc.integer({ min: 1890, max: 2110 }), fc.integer({ min: -3, max: 3 }))
  .map(([year, shift]) => plusDays(parseDate(`${year}-03-01`) as CalendarDate, shift));
const anyDate = fc.oneof(calendarDate, nearFeb29);

describe('calendar dates (same answers as luxon, without it)', () => {
  it('parses exactly the texts luxon parsed, to the same date', () => {
    fc.assert(
      fc.property(dateText, (text) => expectSame(parseDate(text), luxon.parseDate(text))),
      { numRuns: 5000 },
    );
  });

  it('walks every day from 1896 to 2104 like luxon: day numbers, ISO text, ± days and months', () => {
    const differs = (ours: CalendarDate | undefined, theirs: DateTime) =>
      ours === undefined ||
      isoDate(ours) !== theirs.toFormat('yyyy-MM-dd') ||
      ours.epochDay * DAY_MS !== theirs.toMillis();
    const mismatches: string[] = [];
    let date = parseDate('1896-01-01') as CalendarDate;
    let theirs = luxon.parseDate('1896-01-01') as DateTime;
    while (date.year < 2105) {
      if (
        differs(parseDate(isoDate(date)), theirs) ||
        differs(plusDays(date, -1), theirs.minus({ days: 1 })) ||
        differs(plusMonths(date, 12), theirs.plus({ years: 1 })) ||
        differs(plusMonths(date, -13), theirs.plus({ months: -13 }))
      ) {
        mismatches.push(isoDate(date));
      }
      date = plusDays(date, 1);
      theirs = theirs.plus({ days: 1 });
    }
    expect(mismatches).toEqual([]);
  });

  it('adds months and compares like luxon, fractions of a month included', () => {
    const months = fc.oneof(fc.integer({ min: -40, max: 40 }), fc.constantFrom(0.5, 1.25, 18.9, -2.5, 1e6));
    fc.assert(
      fc.property(anyDate, anyDate, months, (date, from, m) => {
        if (Number.isInteger(m) && Math.abs(m) < 1000)
          expectSame(plusMonths(from, m), luxon.of(from).plus({ months: m }));
        expect(isMonthsAfter(date, from, m)).toBe(luxon.of(date) >= luxon.of(from).plus({ months: m }));
      }),
      { numRuns: 5000 },
    );
  });

  it('counts days and completed years like luxon, 29 February birthdays and negative spans included', () => {
    fc.assert(
      fc.property(anyDate, anyDate, (a, b) => {
        expect(daysBetween(a, b)).toBe(Math.round(luxon.of(b).diff(luxon.of(a), 'days').days));
        expect(ageOn(a, b)).toBe(Math.floor(luxon.of(b).diff(luxon.of(a), 'years').years));
      }),
      { numRuns: 20_000 },
    );
  });

  it('takes the quote date in a zone like luxon, unknown and offset zones included', () => {
    const zones = fc.oneof(
      fc.constantFrom(...Intl.supportedValuesOf('timeZone')),
      fc.constantFrom(
        'UTC',
        'utc',
        'GMT',
        'Etc/GMT+12',
        'Etc/GMT-14',
        'UTC+10',
        'utc-03:30',
        'local',
        'system',
        'Nowhere/City',
        '',
        'EST',
        '+05:30',
      ),
    );
    const instants = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }).map((ms) => new Date(ms));
    fc.assert(
      fc.property(instants, zones, (now, zone) => expectSame(calendarDateIn(now, zone), luxon.quoteDateOf(now, zone))),
      { numRuns: 5000 },
    );
    expect(() => calendarDateIn(new Date(Number.NaN), 'UTC')).toThrow('the clock gave an invalid instant');
  });
});
