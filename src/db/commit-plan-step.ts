import type {
  Compilable,
  Expression,
  InsertQueryBuilder,
  InsertResult,
  QueryCreator,
  RawBuilder,
  SqlBool,
} from 'kysely';
import type { Database, Executor } from './database.js';

/** A commit plan's parts as the tables' owners declare them (the runner: commit-plan.ts). */

export type PlanRow = Record<string, unknown>;

/** An earlier step's column, for a repository's step that reads it (the header's policy number). */
export interface StepColumn {
  readonly step: string;
  readonly column: string;
}

/** A column's value in an insert: a value of the call (`input.v.x`), a constant, or an SQL expression. */
type ColumnValue = unknown;

type TableName = keyof Database;
/** The insert a step's `insert` starts: finish it (`onConflict`, `returning`) with Kysely's builder. */
type InsertOf<T extends TableName> = InsertQueryBuilder<Database, T, InsertResult>;

/** What a step's statement is built from. */
export interface StepInput<V> {
  /** The call's values as placeholders: use each only where a bound parameter goes. */
  readonly v: V;
  /** An earlier step's answered column. */
  readonly ref: <T = unknown>(step: string, column: string) => RawBuilder<T>;
  /** True when the step this one follows answered a row: an update's or a select's `where`. */
  readonly gate: RawBuilder<SqlBool>;
  /** `insert into table (columns) …` of one row, gated, with an optional condition. */
  readonly insert: <T extends TableName>(
    table: T,
    row: Readonly<Record<string, ColumnValue>>,
    where?: Expression<SqlBool>,
  ) => InsertOf<T>;
  /** `insert into table …` of the rows `v.name` (an array of rows of `columns`), each with `shared`. */
  readonly insertRows: <T extends TableName>(
    table: T,
    rows: unknown,
    columns: readonly string[],
    shared: Readonly<Record<string, Expression<unknown>>>,
  ) => InsertOf<T>;
  /** A select's row lock (PostgreSQL; SQLite has one writer and no row locks). */
  readonly lock: <Q extends { forUpdate: () => Q }>(query: Q) => Q;
  /** `n`'s digits left-padded with zeros to `width`, never cut (a policy number's counter). */
  readonly zeroPadded: (n: Expression<number>, width: unknown) => RawBuilder<string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a plan's steps each have their own values
export interface PlanStep<V extends object = any> {
  /** Unique in its plan: the CTE's name on PostgreSQL. */
  readonly name: string;
  /** The step whose row this one needs; without, it always runs. */
  readonly after?: string;
  /** Answering no row ends the plan with this outcome, nothing written. */
  readonly orElse?: string;
  /**
   * The step only locks rows and checks what later steps' writes check again, so that
   * PostgreSQL's one statement writes nothing past a closed gate. SQLite has one writer: the
   * runner skips it there (as if it answered a row) and a refusing write rolls back instead.
   */
  readonly locks?: boolean;
  /** What makes calls' SQL differ (the columns a patch sets, how many states): compiled once per shape. */
  readonly shape?: string;
  readonly values: V;
  readonly build: (qc: QueryCreator<Database>, input: StepInput<V>) => Compilable;
}

export interface CommitPlan {
  /** Names the compiled statements: one per plan, engine and shape. */
  readonly name: string;
  readonly steps: readonly PlanStep[];
  /**
   * The columns the caller reads back, per step (PostgreSQL answers only these; SQLite each
   * step's row); `'row'`: every column the step returns (read as JSON on PostgreSQL: rare commits).
   */
  readonly answer?: Readonly<Record<string, readonly string[] | 'row'>>;
}

/** Each step's first row (undefined: it answered none or did not run), or the outcome that ended the plan. */
export interface PlanResult {
  readonly ended?: string;
  readonly rows: Readonly<Record<string, PlanRow | undefined>>;
}

/** Runs a plan on one engine: in the caller's transaction when `db` is one, else in its own commit. */
export interface PlanRunner {
  run(db: Executor, plan: CommitPlan): Promise<PlanResult>;
}

/** Ends a plan on SQLite: thrown to roll its transaction back (the caller's, when it runs in one). */
export class PlanEnded extends Error {
  constructor(readonly outcome: string) {
    super(`commit plan ended: ${outcome}`);
  }
}
