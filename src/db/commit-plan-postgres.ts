import { sql, type QueryCreator, type SqlBool } from 'kysely';
import {
  CompiledPlans,
  execute,
  isExpression,
  Placeholders,
  statementAt,
  TRUE,
  type CompiledPlan,
} from './commit-plan-slots.js';
import type { CommitPlan, PlanResult, PlanRow, PlanRunner, StepInput } from './commit-plan-step.js';
import type { Database, Executor } from './database.js';

/**
 * PostgreSQL's runner of commit plans (db/commit-plan.ts): the steps as CTEs of one statement,
 * answering `plan.answer`'s columns and which steps had a row.
 */
export class PostgresPlanRunner implements PlanRunner {
  readonly #compiled = new CompiledPlans();

  async run(db: Executor, plan: CommitPlan): Promise<PlanResult> {
    const compiled = this.#compiled.of(plan, false, () => compileChained(db, plan));
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
}

/** The steps as CTEs of one statement, then one row: which steps answered a row, and the asked columns. */
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
