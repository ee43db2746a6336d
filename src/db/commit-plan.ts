import type { CommitPlan, PlanResult, PlanRunner } from './commit-plan-step.js';
import type { Executor } from './database.js';
import { dialectOf, type DialectName } from './dialect.js';
import { PostgresPlanRunner } from './commit-plan-postgres.js';
import { SqlitePlanRunner } from './commit-plan-sqlite.js';

/**
 * A commit plan: a multi-table commit declared once, as ordered steps, each written by the
 * repository that owns its table (commit-plan-step.ts), and run by either engine's runner:
 * - SQLite (commit-plan-sqlite.ts): each step its own statement, in one transaction. An earlier
 *   step's column a step reads (`input.ref`) is bound as a value; a step runs only when the step
 *   it follows (`after`) answered a row; a step with `orElse` that answers none ends the plan with
 *   that outcome and rolls back.
 * - PostgreSQL (commit-plan-postgres.ts): the steps chained as CTEs of ONE statement (no
 *   BEGIN/COMMIT round trips, row locks taken inside it). `input.ref` reads the earlier CTE,
 *   `input.gate` requires a row of the step it follows, and an insert's values travel as one JSON
 *   row read with the table's own row type (`json_populate_record`), so no value needs a cast.
 * A step's values are read through the placeholders of `input.v` (never a list of names), and
 * each plan is compiled once per engine and shape (commit-plan-slots.ts), then run with each
 * call's values.
 */

export * from './commit-plan-step.js';

const runners: Readonly<Record<DialectName, PlanRunner>> = {
  sqlite: new SqlitePlanRunner(),
  postgres: new PostgresPlanRunner(),
};

/** Runs the plan: in the caller's transaction when `db` is one, else in its own commit. */
export function runPlan(db: Executor, plan: CommitPlan): Promise<PlanResult> {
  return runners[dialectOf(db)].run(db, plan);
}
