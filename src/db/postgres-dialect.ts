import {
  PostgresDialect,
  PostgresDriver,
  PostgresIntrospector,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Driver,
  type Kysely,
  type QueryResult,
  type TableMetadata,
  type TransactionSettings,
} from 'kysely';
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { isDatabaseFault } from './faults.js';

// undefined_table, undefined_column: what a catalog lookup by name raises when the object was
// renamed or dropped between the catalog scan and the lookup.
const VANISHED = new Set(['42P01', '42703']);
const ATTEMPTS = 5;
const PAUSE_MS = 20;

/**
 * Runs `scan` again (up to five times, pausing longer each time) while it fails because an
 * object it looked up by name vanished under it; any other failure is thrown at once.
 */
export async function retryWhileVanishing<T>(scan: () => Promise<T>, pauseMs = PAUSE_MS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await scan();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !VANISHED.has(code)) throw error;
    }
    // DDL elsewhere comes in bursts (a migration, a test's setup): let it finish.
    await new Promise((resolve) => setTimeout(resolve, pauseMs * attempt));
  }
}

/**
 * Kysely's introspection (the migrator asks it whether its own tables exist) scans every
 * schema's columns and looks each table up by name; another schema's DDL committing mid-scan
 * (test files migrate in parallel schemas; operators may share a database) makes that lookup
 * fail with "relation does not exist". Catalog lookups by name do not follow the query's
 * snapshot, so the scan is retried.
 */
class RaceTolerantIntrospector extends PostgresIntrospector {
  override getTables(options?: DatabaseMetadataOptions): Promise<TableMetadata[]> {
    return retryWhileVanishing(() => super.getTables(options));
  }
}

/**
 * PostgreSQL as Kysely ships it, with introspection that survives other schemas' DDL and builder
 * queries run as named prepared statements. The pool's connections must keep the `search_path`
 * they start with (set it in the connection options, never with `SET`): a name stands for a text
 * as the connection first parsed it, tables resolved through that path.
 */
export class SharedDatabasePostgresDialect extends PostgresDialect {
  readonly #pool: pg.Pool;
  readonly #queryTimeoutMs: number | undefined;

  /** `queryTimeoutMs`: how long the client waits for any answer to a statement (see `NamingConnection`). */
  constructor(config: { pool: pg.Pool; queryTimeoutMs?: number }) {
    super({ pool: config.pool });
    this.#pool = config.pool;
    this.#queryTimeoutMs = config.queryTimeoutMs;
  }

  override createDriver(): Driver {
    return new NamedStatementPostgresDriver(this.#pool, new StatementNames(), this.#queryTimeoutMs);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new RaceTolerantIntrospector(db);
  }
}

// ---------------------------------------------------------------------------------------------
// Named prepared statements

/** Root nodes whose SQL text comes from the query builder: one text per query shape. */
const NAMED_KINDS: ReadonlySet<string> = new Set([
  'SelectQueryNode',
  'InsertQueryNode',
  'UpdateQueryNode',
  'DeleteQueryNode',
  'MergeQueryNode',
]);
/**
 * The server can no longer run a prepared statement: "cached plan must not change result type"
 * (feature_not_supported raised by plan revalidation: a table the statement reads changed its
 * columns) or invalid_sql_statement_name (the name was deallocated). Other 0A000 errors are the
 * query's own and are not retried.
 */
function isStaleStatement(error: unknown): boolean {
  const { code, routine } = error as { code?: unknown; routine?: unknown };
  return code === '26000' || (code === '0A000' && routine === 'RevalidateCachedQuery');
}
/** Distinct SQL texts named per process; texts beyond it run unnamed. */
export const STATEMENT_NAME_LIMIT = 1000;

/**
 * Names for SQL texts, shared by every connection of a process: the same text gets the same
 * name everywhere, so each connection parses it once (connections prepare lazily, on first use).
 * Bounded: pg remembers every name a connection prepared for the connection's lifetime.
 */
export class StatementNames {
  readonly #names = new Map<string, string>();
  constructor(readonly limit = STATEMENT_NAME_LIMIT) {}

  /** The name of `compiled`, or undefined when it must run unnamed (not a builder query, or the set is full). */
  nameOf(compiled: CompiledQuery): string | undefined {
    if (!NAMED_KINDS.has(compiled.query.kind)) return undefined;
    let name = this.#names.get(compiled.sql);
    if (name === undefined && this.#names.size < this.limit) {
      name = `k${this.#names.size + 1}`;
      this.#names.set(compiled.sql, name);
    }
    return name;
  }

  get size(): number {
    return this.#names.size;
  }
}

/** What the connection needs of a pg pool client. */
export interface NamingClient {
  query(config: {
    name?: string;
    text: string;
    values: unknown[];
    query_timeout?: number;
  }): Promise<{ command: string; rowCount: number | null; rows: unknown[] }>;
  /** With an argument, pg-pool closes the client instead of keeping it. */
  release(destroy?: boolean): void;
  /** pg's socket; destroyed at once for a client that lost its server (ending it politely could wait for ever). */
  readonly connection?: { readonly stream?: { destroy(): void } };
}

const unbounded = new AsyncLocalStorage<true>();

/**
 * Runs `work` with no client-side bound on statements (migrations: DDL and the migration lock may
 * rightly take long; they also lift the server's statement_timeout, see db/migrate.ts).
 */
export function withoutQueryTimeout<T>(work: () => Promise<T>): Promise<T> {
  return unbounded.run(true, work);
}

/**
 * One pooled pg client: builder queries run as named prepared statements, everything else (DDL,
 * raw SQL, transaction control) unnamed. A statement the server can no longer use as prepared
 * (a table's columns changed under a `select *`, or the name was deallocated) makes this
 * connection prepare every text again under new names; the failed statement had no effect, so
 * outside a transaction it is run once more, inside one the error ends the transaction as any
 * other would.
 */
export class NamingConnection implements DatabaseConnection {
  /** Bumped when the server's prepared statements can no longer be trusted; part of every name. */
  #generation = 0;
  inTransaction = false;
  /** The connection failed as a connection (lost, timed out): it is discarded, never reused. */
  broken = false;

  /**
   * `queryTimeoutMs`: the client's own bound on waiting for an answer, a little above the server's
   * statement_timeout: the server cancels a slow statement itself; this one only fires when the
   * server cannot answer at all (a network partition), which no server-side timeout can report.
   */
  constructor(
    readonly client: NamingClient,
    readonly names: StatementNames,
    readonly queryTimeoutMs?: number,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const base = this.names.nameOf(compiled);
    try {
      return await this.#run<R>(compiled, base);
    } catch (error) {
      if (isDatabaseFault(error)) this.broken = true;
      if (base === undefined || !isStaleStatement(error)) throw error;
      this.#generation++;
      if (this.inTransaction) throw error;
      return await this.#run<R>(compiled, base);
    }
  }

  async #run<R>(compiled: CompiledQuery, base: string | undefined): Promise<QueryResult<R>> {
    const text = compiled.sql;
    const values = [...compiled.parameters];
    const name = base === undefined ? undefined : this.#generation === 0 ? base : `${base}_${this.#generation}`;
    const timeout =
      this.queryTimeoutMs === undefined || unbounded.getStore() ? {} : { query_timeout: this.queryTimeoutMs };
    const { command, rowCount, rows } = await this.client.query(
      name === undefined ? { text, values, ...timeout } : { name, text, values, ...timeout },
    );
    const affected = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return { ...(affected ? { numAffectedRows: BigInt(rowCount ?? 0) } : {}), rows: rows as R[] };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported by this PostgreSQL driver');
  }
}

function namingOf(connection: DatabaseConnection): NamingConnection {
  if (!(connection instanceof NamingConnection)) throw new Error('not a connection of this driver');
  return connection;
}

/**
 * Kysely's PostgreSQL driver with named prepared statements (docs/decisions.md, "Named prepared
 * statements on PostgreSQL"): the backend parses and analyses a builder query's text once per
 * connection instead of on every call, and after five runs may keep a generic plan. Transaction
 * control, savepoints and pool handling are Kysely's; only the connection differs.
 */
export class NamedStatementPostgresDriver extends PostgresDriver {
  readonly #pool: pg.Pool;
  readonly #names: StatementNames;
  readonly #connections = new WeakMap<pg.PoolClient, NamingConnection>();
  #destroyed = false;

  constructor(
    pool: pg.Pool,
    names = new StatementNames(),
    readonly queryTimeoutMs?: number,
  ) {
    super({ pool });
    this.#pool = pool;
    this.#names = names;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.#pool.connect();
    if (this.#destroyed) {
      client.release();
      throw new Error('driver has already been destroyed');
    }
    let connection = this.#connections.get(client);
    if (!connection) {
      connection = new NamingConnection(client, this.#names, this.queryTimeoutMs);
      this.#connections.set(client, connection);
    }
    return connection;
  }

  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await super.beginTransaction(connection, settings);
    namingOf(connection).inTransaction = true;
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    namingOf(connection).inTransaction = false;
    await super.commitTransaction(connection);
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    namingOf(connection).inTransaction = false;
    await super.rollbackTransaction(connection);
  }

  override releaseConnection(connection: DatabaseConnection): Promise<void> {
    const naming = namingOf(connection);
    naming.inTransaction = false;
    if (naming.broken) {
      naming.client.connection?.stream?.destroy();
      naming.client.release(true);
    } else naming.client.release();
    return Promise.resolve();
  }

  override async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#pool.end();
  }
}
