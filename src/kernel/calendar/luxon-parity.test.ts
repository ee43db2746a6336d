import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isIsoDate, wholeYears } from './dates.js';
import { yearIn } from './zones.js';

// Dates as text, valid or not, around month ends and leap days.
const dateText = fc
  .tuple(fc.integer({ min: 1896, max: 2104 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([y, m, d]) => `${String(y)}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
const validDate = dateText.filter((text) => DateTime.fromISO(text, { zone: 'utc' }).isValid);

describe('calendar arithmetic without luxon (each checked against luxon, which it replaced)', () => {
  it('whole years between two dates: as luxon diff counts them, 29 February included', () => {
    fc.assert(
      fc.property(validDate, validDate, (from, to) => {
        expect(wholeYears(from, to)).toBe(Math.floor(DateTime.fromISO(to).diff(DateTime.fromISO(from), 'years').years));
      }),
      { numRuns: 5000 },
    );
    expect(wholeYears('2000-02-29', '2001-02-28')).toBe(1);
    expect(wholeYears('2000-02-29', '2004-02-28')).toBe(3);
    expect(wholeYears('1990-06-15', '2026-06-14')).toBe(35);
  });

  it('calendar dates: as luxon validates them', () => {
    fc.assert(
      fc.property(dateText, (text) => {
        expect(isIsoDate(text)).toBe(DateTime.fromISO(text, { zone: 'utc' }).isValid);
      }),
      { numRuns: 5000 },
    );
  });

  it('the year of an instant in a zone: as luxon reads it, across new year', () => {
    const zones = [
      'UTC',
      'Australia/Sydney',
      'Pacific/Kiritimati',
      'Pacific/Pago_Pago',
      'America/New_York',
      'Asia/Kolkata',
    ];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1950-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        (instant, zone) => {
          expect(yearIn(instant, zone)).toBe(DateTime.fromJSDate(instant, { zone }).year);
        },
      ),
      { numRuns: 3000 },
    );
    for (const zone of zones) {
      for (const at of [
        '2026-12-31T10:30:00Z',
        '2026-12-31T13:30:00Z',
        '2027-01-01T10:59:59Z',
        '2027-01-01T11:00:00Z',
      ]) {
        expect(yearIn(new Date(at), zone)).toBe(DateTime.fromJSDate(new Date(at), { zone }).year);
      }
    }
  });
});
