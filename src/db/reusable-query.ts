import { createQueryId, type CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import { setBounded } from '../kernel/cache/bounded-map.js';
import type { Executor } from './database.js';
import { dialectOf, type DialectName } from './dialect.js';

/** Runs a reusable query with one call's values. */
export type ReusableQuery<V, R> = (db: Executor, values: V) => Promise<QueryResult<R>>;

/**
 * A query compiled once, and where each call's values go: parameter i is `constants[i]` when
 * `names[i]` is undefined, else the value `names[i]` (of row `rows[i]` for a multi-row insert).
 */
interface Compiled<R> {
  readonly query: CompiledQuery<R>;
  readonly names: readonly (string | undefined)[];
  readonly rows: readonly number[];
}

/**
 * A query built and compiled once per engine, then run with each call's values. Kysely builds a
 * frozen operation tree and compiles it to SQL on every call: for a 25-column insert or a read
 * with joins and JSON subqueries that cost more CPU than running the statement.
 *
 * `build` receives placeholders standing for the values (`values.x` is the value of `x`) and must
 * use each only where a bound parameter goes (`where`, `values`, `set`), never inside SQL text or
 * in arithmetic (`values.n + 1` would be a constant; write `eb('n', '+', 1)` or pass `n + 1`).
 * Plugins of the executor see the compiled query, not its tree (`transformQuery` is not called).
 * A value of `undefined` is refused: the built query may have dropped that column instead.
 */
export function reusableQuery<V extends object, R>(
  names: readonly (keyof V & string)[],
  build: (db: Executor, values: V) => Compilable<R>,
): ReusableQuery<V, R> {
  const compiled = new Map<DialectName, Compiled<R>>();
  return async (db, values) => {
    const dialect = dialectOf(db);
    let entry = compiled.get(dialect);
    if (!entry) {
      const placeholders = placeholdersFor(names, 0);
      entry = compileWith(build(db, Object.fromEntries(placeholders.values) as V), placeholders.slots);
      compiled.set(dialect, entry);
    }
    return run(db, entry, [values as Record<string, unknown>]);
  };
}

/** How many row counts of one multi-row insert keep their compiled statement. */
const ROW_COUNTS_KEPT = 32;

/**
 * `reusableQuery` for a multi-row insert: compiled once per engine and number of rows. `build`
 * receives that many rows of placeholders (each with every name of `names`) and must bind each
 * one as a parameter, as in `db.insertInto(table).values(rows)`.
 */
export function reusableInsert<Row extends object, R = never>(
  names: readonly (keyof Row & string)[],
  build: (db: Executor, rows: Row[]) => Compilable<R>,
): (db: Executor, rows: readonly Row[]) => Promise<QueryResult<R>> {
  const compiled = new Map<string, Compiled<R>>();
  return async (db, rows) => {
    if (rows.length === 0) throw new Error('reusableInsert: no rows');
    const key = `${dialectOf(db)}:${rows.length}`;
    let entry = compiled.get(key);
    if (!entry) {
      const slots = new Map<unknown, Slot>();
      const placeholderRows = rows.map((_, row) => {
        const placeholders = placeholdersFor(names, row);
        for (const [value, slot] of placeholders.slots) slots.set(value, slot);
        return Object.fromEntries(placeholders.values) as Row;
      });
      entry = compileWith(build(db, placeholderRows), slots);
      setBounded(compiled, key, entry, ROW_COUNTS_KEPT);
    }
    return run(db, entry, rows as readonly Record<string, unknown>[]);
  };
}

type Slot = readonly [row: number, name: string];

function placeholdersFor(names: readonly string[], row: number) {
  const values = names.map((name) => [name, placeholderFor(name)] as const);
  const slots = new Map<unknown, Slot>(values.map(([name, value]) => [value, [row, name]]));
  return { values, slots };
}

/** A value no caller passes: found again among the compiled parameters by identity. */
function placeholderFor(name: string): string {
  return `\u0000reusable-query:${name}:${Math.random()}`;
}

function compileWith<R>(compilable: Compilable<R>, slots: ReadonlyMap<unknown, Slot>): Compiled<R> {
  const query = compilable.compile();
  const found = query.parameters.map((parameter) => slots.get(parameter));
  const used = new Set(found);
  const unused = [...slots.values()].filter((slot) => !used.has(slot)).map(([, name]) => name);
  if (unused.length > 0) throw new Error(`reusableQuery: ${[...new Set(unused)].join(', ')} not bound as a parameter`);
  return { query, names: found.map((slot) => slot?.[1]), rows: found.map((slot) => slot?.[0] ?? -1) };
}

async function run<R>(
  db: Executor,
  { query, names, rows }: Compiled<R>,
  values: readonly Record<string, unknown>[],
): Promise<QueryResult<R>> {
  const constants = query.parameters;
  const parameters: unknown[] = new Array(constants.length);
  for (let i = 0; i < constants.length; i++) {
    const name = names[i];
    if (name === undefined) {
      parameters[i] = constants[i];
      continue;
    }
    const value = values[rows[i] ?? 0]?.[name];
    if (value === undefined) throw new Error(`reusableQuery: no value for ${name}`);
    parameters[i] = value;
  }
  return await db.executeQuery<R>({ sql: query.sql, query: query.query, parameters, queryId: createQueryId() });
}
