/**
 * How much of a send budget a scope has used in one window: `resends:policy:<number>`,
 * `resends:partner:<id>`, `webhook-tests:partner:<id>`, `redeliveries:partner:<id>`; the window's
 * start is ISO 8601 UTC text (a UTC hour or day).
 */
export interface SendBudgetTable {
  scope: string;
  window_start: string;
  used: number;
}

export interface SendBudgetTables {
  send_budget: SendBudgetTable;
}

declare module '../database.js' {
  /** This room's table, part of the one `Database` type. */
  interface Database extends SendBudgetTables {}
}
