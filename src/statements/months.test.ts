import { describe, expect, it } from 'vitest';
import { CLOSING_GRACE_MS, isMonth, monthOf, monthsBetween, statementMonth } from './months.js';
import { representationOf } from './representation.js';

describe('statement months', () => {
  it('spans the month of the zone, across daylight saving', () => {
    // Sydney moves from UTC+10 to UTC+11 on 4 October 2026.
    expect(statementMonth('2026-10', 'Australia/Sydney', new Date('2026-10-15T00:00:00Z'))).toEqual({
      month: '2026-10',
      status: 'OPEN',
      from: '2026-09-30T14:00:00.000Z',
      to: '2026-10-31T13:00:00.000Z',
    });
    expect(monthOf('2026-11-30T12:59:59.999Z', 'Australia/Sydney')).toBe('2026-11');
    expect(monthOf('2026-11-30T13:00:00.000Z', 'Australia/Sydney')).toBe('2026-12');
    expect(monthOf('2026-12-31T23:30:00.000Z', 'UTC')).toBe('2026-12');
  });

  it('closes a month once it has ended, after the grace', () => {
    const end = Date.parse('2026-11-30T13:00:00.000Z');
    expect(statementMonth('2026-11', 'Australia/Sydney', new Date(end)).status).toBe('OPEN');
    expect(statementMonth('2026-11', 'Australia/Sydney', new Date(end + CLOSING_GRACE_MS)).status).toBe('CLOSED');
  });

  it('reads yyyy-mm only and counts months across years', () => {
    expect(['2026-11', '2026-01', '1999-12'].every(isMonth)).toBe(true);
    expect(['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', ' 2026-11'].some(isMonth)).toBe(false);
    expect(monthsBetween('2026-11', '2027-02')).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
  });
});

describe('statement representations by Accept', () => {
  it.each([
    [undefined, 'application/json'],
    ['text/csv', 'text/csv'],
    ['application/pdf', 'application/pdf'],
    ['text/csv;q=0.5, application/pdf', 'application/pdf'],
    ['application/pdf;q=0, text/*', 'text/csv'],
    ['*/*', 'application/json'],
    ['image/png', 'application/json'],
  ])('%s → %s', (accept, media) => {
    expect(representationOf(accept)).toBe(media);
  });
});
