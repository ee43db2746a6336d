import { sql, type QueryCreator, type SqlBool } from 'kysely';
import { setBounded } from '../kernel/cache/bounded-map.js';
import {
  execute,
  isExpression,
  parametersOf,
  Placeholders,
  statementAt,
  TRUE,
  type CompiledPlan,
} from './commit-plan-slots.js';
import { PlanEnded, type CommitPlan, type PlanResult, type PlanRow, type StepInput } from './commit-plan-step.js';
import type { Database, Executor } from './database.js';
import { dialectOf, type DialectName } from './dialect.js';
import { sqliteUnitsOf } from './sqlite-dialect.js';
import type { SqliteUnits } from './sqlite-units.js';

/**
 * A commit plan: a multi-table commit declared once, as ordered steps, each written by the
 * repository that owns its table, and run by either engine:
 * - SQLite: each step its own statement, in one transaction. An earlier step's column a step
 *   reads (`input.ref`) is bound as a value; a step runs only when the step it follows (`after`)
 *   answered a row; a step with `orElse` that answers none ends the plan with that outcome and
 *   rolls back.
 * - PostgreSQL: the steps chained as CTEs of ONE statement (no BEGIN/COMMIT round trips, row
 *   locks taken inside it). `input.ref` reads the earlier CTE, `input.gate` requires a row of the
 *   step it follows, and an insert's values travel as one JSON row read with the table's own row
 *   type (`json_populate_record`), so no value needs a cast.
 * A step's values are read through the placeholders of `input.v` (never a list of names), and
 * each plan is compiled once per engine and shape, then run with each call's values.
 */

export * from './commit-plan-step.js';

const compiledPlans = new Map<string, CompiledPlan>();
/** Plans times engines times shapes (patch columns, row counts): a few dozen in practice. */
const PLANS_KEPT = 256;

/** Runs the plan: in the caller's transaction when `db` is one, else in its own commit. */
export async function runPlan(db: Executor, plan: CommitPlan): Promise<PlanResult> {
  const dialect = dialectOf(db);
  const key = planKey(plan, dialect);
  let compiled = compiledPlans.get(key);
  if (!compiled) {
    compiled = dialect === 'postgres' ? compileChained(db, plan) : compileSteps(db, plan);
    setBounded(compiledPlans, key, compiled, PLANS_KEPT);
  }
  return dialect === 'postgres' ? runChained(db, plan, compiled) : runSteps(db, plan, compiled);
}

function planKey(plan: CommitPlan, dialect: DialectName): string {
  let key = `${dialect}:${plan.name}`;
  for (const step of plan.steps) {
    key += `|${step.name}:${step.shape ?? ''}`;
    // SQLite binds each row of a multi-row insert: compiled per row count.
    if (dialect === 'sqlite') {
      const values = step.values as Record<string, unknown>;
      for (const name in values) {
        const value = values[name];
        if (Array.isArray(value)) key += `:${value.length}`;
      }
    }
  }
  return key;
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

/**
 * SQLite: the steps one after the other in one turn of the event loop (db/sqlite-units.ts
 * `SqliteUnits`), in a unit of their own unless `db` is a transaction or the plan is one statement.
 */
async function runSteps(db: Executor, plan: CommitPlan, compiled: CompiledPlan): Promise<PlanResult> {
  const units = sqliteUnitsOf(db);
  if (!units) throw new Error('commit plan: a SQLite database not opened by db/connect.ts');
  try {
    return await units.run(db, (connection) => stepsOn(connection, plan, compiled), plan.steps.length > 1);
  } catch (error) {
    if (error instanceof PlanEnded && !db.isTransaction) return { ended: error.outcome, rows: {} };
    throw error;
  }
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

/** PostgreSQL: the steps as CTEs of one statement, answering `plan.answer`'s columns and which steps had a row. */
function compileChained(db: Executor, plan: CommitPlan): CompiledPlan {
  const p = new Placeholders();
  // Each CTE adds a table Kysely types from the step's builder: not expressible over a list of steps.
  let chained = db as unknown as QueryCreator<Database>;
  plan.steps.forEach((step, index) => {
    const gate = step.after === undefined ? TRUE : sql<SqlBool>`exists (select 1 from ${sql.table(step.after)})`;
    const input: StepInput<object> = {
      v: p.valuesOf(index, step.values as object),
      ref: <T>(from: string, column: string) => sql<T>`(select ${sql.ref(column)} from ${sql.table(from)})`,
      gate,
      insert: (table, row, where) => {
        const columns = Object.keys(row);
        const fields = columns
          .filter((column) => !isExpression(row[column]))
          .map((column) => [column, p.slots.get(row[column]) ?? { constant: row[column] }] as const);
        const json = p.token({ kind: 'json', step: index, fields });
        const selected = columns.map((column) => (isExpression(row[column]) ? row[column] : sql.ref(`r.${column}`)));
        return db
          .insertInto(table)
          .columns(columns as never)
          .expression(
            sql`select ${sql.join(selected)} from json_populate_record(null::${sql.table(table)}, ${json}::json) as r
              where ${gate} and ${where ?? TRUE}`,
          );
      },
      insertRows: (table, rows, columns, shared) => {
        const name = p.slots.get(rows);
        if (name?.kind !== 'value') throw new Error('commit plan: insertRows takes a value of the step');
        const json = p.token({ kind: 'json-rows', step: index, name: name.name });
        const selected = [...Object.values(shared), ...columns.map((column) => sql.ref(`r.${column}`))];
        return db
          .insertInto(table)
          .columns([...Object.keys(shared), ...columns] as never)
          .expression(
            sql`select ${sql.join(selected)} from json_populate_recordset(null::${sql.table(table)}, ${json}::json) as r where ${gate}`,
          );
      },
      lock: (query) => query.forUpdate(),
      zeroPadded: (n, width) =>
        sql<string>`lpad(cast(${n} as text), greatest(cast(${width} as integer), length(cast(${n} as text))), '0')`,
    };
    chained = chained.with(step.name as never, ((qc: QueryCreator<Database>) => step.build(qc, input)) as never);
  });
  // One row: which steps answered a row, and the asked columns of each (single-row steps, joined).
  const answered = Object.keys(plan.answer ?? {});
  const flags = plan.steps
    .filter((step) => step.orElse !== undefined || answered.includes(step.name))
    .map((step) => sql`exists (select 1 from ${sql.table(step.name)})`.as(`${step.name}?`));
  const columns = Object.entries(plan.answer ?? {}).flatMap(([step, names]) =>
    names === 'row'
      ? [sql`row_to_json(${sql.table(step)})`.as(`${step}.*`)]
      : names.map((column) => sql.ref(`${step}.${column}`).as(`${step}.${column}`)),
  );
  const joined = answered.reduce(
    (query, step) => sql`${query} left join ${sql.table(step)} on true`,
    sql`(select 1) as plan_answer`,
  );
  const answer = sql`(select ${sql.join([sql`1`.as('plan'), ...flags, ...columns])} from ${joined})`;
  return { statements: [p.statement(chained.selectFrom(answer.as('plan')).selectAll())] };
}

async function runChained(db: Executor, plan: CommitPlan, compiled: CompiledPlan): Promise<PlanResult> {
  const { rows: answered } = await execute(db, statementAt(compiled, 0), plan, {});
  const answer = answered[0] ?? {};
  const rows: Record<string, PlanRow | undefined> = {};
  for (const step of plan.steps) {
    if (answer[`${step.name}?`] !== true) continue;
    const names = plan.answer?.[step.name] ?? [];
    const row: PlanRow = names === 'row' ? { ...(answer[`${step.name}.*`] as PlanRow) } : {};
    if (names !== 'row') for (const column of names) row[column] = answer[`${step.name}.${column}`];
    rows[step.name] = row;
  }
  const ended = plan.steps.find((step) => step.orElse !== undefined && rows[step.name] === undefined)?.orElse;
  return ended === undefined ? { rows } : { ended, rows: {} };
}
