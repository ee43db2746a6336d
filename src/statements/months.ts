import { DateTime } from 'luxon';
import type { StatementMonth } from './model.js';

/** `yyyy-mm`: a statement month as the path names it. */
export const MONTH_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';
const MONTH = new RegExp(MONTH_PATTERN);

/**
 * A month closes this long after it ended: a transaction's committed time is taken as its commit
 * runs, so one that committed just after midnight may still carry the last instant of the month.
 * Commits are bounded far below it by the database's lock and statement timeouts.
 */
export const CLOSING_GRACE_MS = 60_000;

export const isMonth = (text: string): boolean => MONTH.test(text);

const startOf = (month: string, zone: string) =>
  DateTime.fromObject({ year: Number(month.slice(0, 4)), month: Number(month.slice(5, 7)), day: 1 }, { zone });

const iso = (time: DateTime) => new Date(time.toMillis()).toISOString();

/** The month of `instant` in `zone`. */
export function monthOf(instant: Date | string, zone: string): string {
  const time = DateTime.fromJSDate(typeof instant === 'string' ? new Date(instant) : instant, { zone });
  return time.toFormat('yyyy-MM');
}

/** The month `count` months after `month` (negative: before). */
export function monthsAfter(month: string, count: number): string {
  return startOf(month, 'UTC').plus({ months: count }).toFormat('yyyy-MM');
}

/** The month's span in `zone` and whether it has closed at `now`. */
export function statementMonth(month: string, zone: string, now: Date): StatementMonth {
  const start = startOf(month, zone);
  const end = start.plus({ months: 1 });
  return {
    month,
    status: now.getTime() >= end.toMillis() + CLOSING_GRACE_MS ? 'CLOSED' : 'OPEN',
    from: iso(start),
    to: iso(end),
  };
}

/** Every month from `first` to `last`, inclusive, oldest first. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  for (let month = first; month <= last; month = monthsAfter(month, 1)) months.push(month);
  return months;
}
