/** The fixed windows of send budgets: a UTC hour or a UTC day, counted from its start. */
export const BUDGET_WINDOWS = ['hour', 'day'] as const;
export type BudgetWindow = (typeof BUDGET_WINDOWS)[number];

export const WINDOW_SECONDS: Readonly<Record<BudgetWindow, number>> = { hour: 3600, day: 86_400 };

/** The start of the window holding `at` (ISO 8601 UTC): the hour's or the day's first instant. */
export function windowStartOf(window: BudgetWindow, at: string): string {
  return window === 'hour' ? `${at.slice(0, 13)}:00:00.000Z` : `${at.slice(0, 10)}T00:00:00.000Z`;
}

/** Whole seconds from `at` to the end of its window, at least 1 (a `Retry-After`). */
export function secondsLeftIn(window: BudgetWindow, at: string): number {
  const end = Date.parse(windowStartOf(window, at)) + WINDOW_SECONDS[window] * 1000;
  return Math.max(1, Math.ceil((end - Date.parse(at)) / 1000));
}
