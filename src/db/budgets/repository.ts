import type { Executor } from '../database.js';
import { windowStartOf, WINDOW_SECONDS, type BudgetWindow } from './windows.js';

/**
 * Budgets of what partners may have sent to addresses they choose (document resends, webhook test
 * events, redeliveries): so many units per scope in a fixed UTC window. The `send_budget` table's
 * one owner.
 */
export interface SendBudget {
  /** Who spends it, e.g. `webhook-tests:partner:7`. */
  readonly scope: string;
  readonly window: BudgetWindow;
  /** Units a window allows. */
  readonly limit: number;
}

/**
 * Takes `units` of the budget's window holding `at`: true when that many were left (nothing taken
 * otherwise). One statement, an upsert whose update is conditional: on PostgreSQL the conflicting
 * row is locked and its condition judged on its newest version, so parallel takers never pass
 * `limit` between them; SQLite has one writer. Run it in the transaction of what it pays for, so a
 * refusal or a rollback leaves nothing taken.
 */
export async function takeSendBudget(db: Executor, budget: SendBudget, units: number, at: string): Promise<boolean> {
  if (units <= 0) return true;
  if (units > budget.limit) return false;
  const taken = await db
    .insertInto('send_budget')
    .values({ scope: budget.scope, window_start: windowStartOf(budget.window, at), used: units })
    .onConflict((oc) =>
      oc
        .columns(['scope', 'window_start'])
        .doUpdateSet((eb) => ({ used: eb('send_budget.used', '+', units) }))
        .where((eb) => eb(eb('send_budget.used', '+', units), '<=', budget.limit)),
    )
    .returning('used')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Forgets the windows that ended before the previous UTC day began: nothing counts against them. */
export async function purgeSendBudgets(db: Executor, at: string): Promise<void> {
  const before = Date.parse(windowStartOf('day', at)) - WINDOW_SECONDS.day * 1000;
  await db.deleteFrom('send_budget').where('window_start', '<', new Date(before).toISOString()).execute();
}
