import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { coverDays, isIsoDate } from './dates.js';
import { localDateOf } from './local-date.js';
import { endOfDayIn, instantIn, isTimeZone, startOfDayIn, yearIn } from './zones.js';

describe('LocalDate', () => {
  it('has the ISO calendar, the CE era, weekday and day of year', () => {
    expect(localDateOf('2026-12-31')).toEqual({
      calendar: { id: 'ISO', name: 'ISO', minYear: -9998, maxYear: 9999, eras: [{ name: 'BCE' }, { name: 'CE' }] },
      year: 2026,
      month: 12,
      day: 31,
      dayOfWeek: 'Thursday',
      yearOfEra: 2026,
      era: { name: 'CE' },
      dayOfYear: 365,
    });
    expect(localDateOf('2024-02-29')).toMatchObject({ dayOfWeek: 'Thursday', dayOfYear: 60 });
    expect(localDateOf('1990-01-07').dayOfWeek).toBe('Sunday');
  });

  it('refuses text that is not a calendar date', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '26-01-01', '2026-01-01T00:00:00Z', '']) {
      expect(isIsoDate(bad)).toBe(false);
      expect(() => localDateOf(bad)).toThrow(RangeError);
    }
    expect(isIsoDate('2026-02-28')).toBe(true);
  });
});

describe('zoned times', () => {
  it('shows an instant in UTC and on the wall clock of the zone', () => {
    expect(instantIn('2026-11-22T21:53:09.123Z', 'Australia/Sydney')).toEqual({
      at: '2026-11-22T21:53:09.123Z',
      localDateTime: '2026-11-23T08:53:09.123',
    });
    expect(instantIn(new Date('2026-07-01T00:00:00Z'), 'Pacific/Auckland').localDateTime).toBe(
      '2026-07-01T12:00:00.000',
    );
  });

  it('starts cover at local midnight and ends it at 23:59:59 local', () => {
    expect(startOfDayIn('2026-12-01', 'Australia/Sydney')).toEqual({
      at: '2026-11-30T13:00:00.000Z',
      localDateTime: '2026-12-01T00:00:00.000',
    });
    expect(endOfDayIn('2026-06-10', 'Australia/Perth')).toEqual({
      at: '2026-06-10T15:59:59.000Z',
      localDateTime: '2026-06-10T23:59:59.000',
    });
  });

  it('skips forward over a midnight DST gap', () => {
    // Chile moves clocks from 24:00 to 01:00 on the first Sunday of September.
    const start = startOfDayIn('2026-09-06', 'America/Santiago');
    expect(start.localDateTime).toBe('2026-09-06T01:00:00.000');
    expect(start.at).toBe('2026-09-06T04:00:00.000Z');
  });

  it('counts cover days with both ends included', () => {
    expect(coverDays('2026-12-01', '2026-12-01')).toBe(1);
    expect(coverDays('2026-12-01', '2027-01-01')).toBe(32);
    expect(coverDays('2026-03-28', '2026-03-30')).toBe(3);
  });

  it('takes the issue year in the policy zone', () => {
    const newYearInSydney = new Date('2026-12-31T14:00:00Z');
    expect(yearIn(newYearInSydney, 'Australia/Sydney')).toBe(2027);
    expect(yearIn(newYearInSydney, 'UTC')).toBe(2026);
  });

  it('knows IANA zones', () => {
    expect(isTimeZone('Australia/Sydney')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('remembered date answers', () => {
  const zones = ['Australia/Sydney', 'Pacific/Auckland', 'America/New_York', 'Europe/London', 'Asia/Kolkata', 'UTC'];
  const dates = fc
    .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

  it('are what luxon computes, on the first call and on later ones, and frozen', () => {
    fc.assert(
      fc.property(dates, fc.constantFrom(...zones), (date, zone) => {
        const start = DateTime.fromISO(date, { zone }).startOf('day');
        const end = DateTime.fromISO(date, { zone }).set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
        const expected = (m: DateTime) => ({
          at: m.toUTC().toISO({ suppressMilliseconds: false }),
          localDateTime: m.toISO({ includeOffset: false, suppressMilliseconds: false }),
        });
        for (let call = 0; call < 2; call += 1) {
          expect(startOfDayIn(date, zone)).toEqual(expected(start));
          expect(endOfDayIn(date, zone)).toEqual(expected(end));
          expect(localDateOf(date)).toMatchObject({
            year: start.year,
            month: start.month,
            day: start.day,
            dayOfYear: start.ordinal,
          });
        }
        expect(Object.isFrozen(startOfDayIn(date, zone)) && Object.isFrozen(localDateOf(date).calendar)).toBe(true);
      }),
    );
  });

  it('still refuse what is not a date, every time', () => {
    for (let call = 0; call < 2; call += 1) {
      expect(() => localDateOf('2026-02-30')).toThrow(RangeError);
      expect(() => startOfDayIn('nope', 'UTC')).toThrow(RangeError);
    }
  });
});
