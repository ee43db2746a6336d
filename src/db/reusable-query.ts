import { createQueryId, type CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import type { Executor } from './database.js';
import { dialectOf, type DialectName } from './dialect.js';

/**
 * A query built and compiled once per engine, then run with each call's values. Kysely builds a
 * frozen operation tree and compiles it to SQL on every call: for a 25-column insert or a read
 * with joins and JSON subqueries that cost more CPU than running the statement.
 *
 * `build` receives placeholders standing for the values (`values.x` is the value of `x`) and must
 * use each only where a bound parameter goes (`where`, `values`, `set`), never inside SQL text.
 * Plugins of the executor see the compiled query, not its tree (`transformQuery` is not called).
 */
export function reusableQuery<V extends Record<string, unknown>, R>(
  names: readonly (keyof V & string)[],
  build: (db: Executor, values: V) => Compilable<R>,
): (db: Executor, values: V) => Promise<QueryResult<R>> {
  const compiled = new Map<DialectName, { query: CompiledQuery<R>; slots: (keyof V | undefined)[] }>();
  const compile = (db: Executor) => {
    const placeholders = Object.fromEntries(names.map((name) => [name, placeholderFor(name)])) as V;
    const query = build(db, placeholders).compile();
    const byPlaceholder = new Map<unknown, keyof V>(names.map((name) => [placeholders[name], name]));
    const slots = query.parameters.map((parameter) => byPlaceholder.get(parameter));
    const used = new Set(slots);
    const unused = names.filter((name) => !used.has(name));
    if (unused.length > 0) throw new Error(`reusableQuery: ${unused.join(', ')} not bound as a parameter`);
    return { query, slots };
  };
  return async (db, values) => {
    const dialect = dialectOf(db);
    let entry = compiled.get(dialect);
    if (!entry) {
      entry = compile(db);
      compiled.set(dialect, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((constant, i) => {
      const name = slots[i];
      return name === undefined ? constant : values[name];
    });
    return await db.executeQuery<R>({ sql: query.sql, query: query.query, parameters, queryId: createQueryId() });
  };
}

/** A value no caller passes: found again among the compiled parameters by identity. */
function placeholderFor(name: string): string {
  return `\u0000reusable-query:${name}:${Math.random()}`;
}
