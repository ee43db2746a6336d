import { sql } from 'kysely';
import {
  CompiledPlans,
  isExpression,
  parametersOf,
  Placeholders,
  statementAt,
  TRUE,
  type CompiledPlan,
} from './commit-plan-slots.js';
import {
  PlanEnded,
  type CommitPlan,
  type PlanResult,
  type PlanRow,
  type PlanRunner,
  type StepInput,
} from './commit-plan-step.js';
import type { Executor } from './database.js';
import { sqliteUnitsOf } from './sqlite-dialect.js';
import type { SqliteUnits } from './sqlite-units.js';

/**
 * SQLite's runner of commit plans (db/commit-plan.ts): each step its own statement, earlier
 * steps' columns bound as values, all of them in one turn of the event loop (db/sqlite-units.ts
 * `SqliteUnits`), in a unit of their own unless `db` is a transaction or the plan is one statement.
 */
export class SqlitePlanRunner implements PlanRunner {
  readonly #compiled = new CompiledPlans();

  async run(db: Executor, plan: CommitPlan): Promise<PlanResult> {
    // Each row of a multi-row insert is bound on its own: compiled per row count.
    const compiled = this.#compiled.of(plan, true, () => compileSteps(db, plan));
    const units = sqliteUnitsOf(db);
    if (!units) throw new Error('commit plan: a SQLite database not opened by db/connect.ts');
    try {
      return await units.run(db, (connection) => stepsOn(connection, plan, compiled), plan.steps.length > 1);
    } catch (error) {
      if (error instanceof PlanEnded && !db.isTransaction) return { ended: error.outcome, rows: {} };
      throw error;
    }
  }
}

/** SQLite: each step its own statement; earlier steps' columns bound as values. */
function compileSteps(db: Executor, plan: CommitPlan): CompiledPlan {
  const statements = plan.steps.map((step, index) => {
    const p = new Placeholders();
    const input: StepInput<object> = {
      v: p.valuesOf(index, step.values as object),
      ref: <T>(from: string, column: string) => sql<T>`${p.token({ kind: 'ref', step: from, column })}`,
      gate: TRUE,
      insert: (table, row, where) => {
        const columns = Object.keys(row);
        const values = columns.map((column) => (isExpression(row[column]) ? row[column] : sql.val(row[column])));
        // A SELECT, not VALUES: it may carry a condition (and SQLite parses an upsert after it only with a WHERE).
        return db
          .insertInto(table)
          .columns(columns as never)
          .expression(sql`select ${sql.join(values)} where ${where ?? TRUE}`);
      },
      insertRows: (table, rows, columns, shared) => {
        const name = p.slots.get(rows);
        if (name?.kind !== 'value') throw new Error('commit plan: insertRows takes a value of the step');
        const count = ((step.values as Record<string, unknown[] | undefined>)[name.name] ?? []).length;
        const tuples = Array.from(
          { length: count },
          (_, i) =>
            sql`(${sql.join([
              ...Object.values(shared),
              ...columns.map((column) =>
                sql.val(p.token({ kind: 'element', step: index, name: name.name, index: i, column })),
              ),
            ])})`,
        );
        return db
          .insertInto(table)
          .columns([...Object.keys(shared), ...columns] as never)
          .expression(sql`values ${sql.join(tuples)}`);
      },
      lock: (query) => query,
      zeroPadded: (n, width) => sql<string>`printf('%0*d', ${width}, ${n})`,
    };
    return p.statement(step.build(db, input));
  });
  return { statements };
}

function stepsOn(connection: SqliteUnits, plan: CommitPlan, compiled: CompiledPlan): PlanResult {
  const rows: Record<string, PlanRow | undefined> = {};
  const skipped = new Set<string>();
  for (const [i, step] of plan.steps.entries()) {
    if (step.locks) {
      rows[step.name] = {};
      continue;
    }
    if (step.after !== undefined && (skipped.has(step.after) || rows[step.after] === undefined)) {
      skipped.add(step.name);
      continue;
    }
    const statement = statementAt(compiled, i);
    const result = connection.execute(statement.query.sql, parametersOf(statement, plan, rows));
    rows[step.name] = result.rows[0] ?? (result.changes > 0 ? {} : undefined);
    if (rows[step.name] === undefined && step.orElse !== undefined) throw new PlanEnded(step.orElse);
  }
  return { rows };
}
