// What the in-process probes (endpoint-probe.ts, purchase-probe.ts) share: the database opened as
// the server opens it with every statement timed, the app seen through app.inject, the CPU of
// the PostgreSQL processes serving the probe, and an optional CPU profile around the measured run.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { AppConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { SharedDatabasePostgresDialect } from '../src/db/postgres-dialect.js';
import type { Database } from '../src/db/database.js';
import type { BenchApi, BenchRequest } from './requests.js';

export interface StatementStats {
  count: number;
  ms: number;
  /** The slowest single call. */
  max: number;
}

/** Time spent in statements, by kind (`insert quote`, `commit`, …); cleared after warm-up. */
export const statements = new Map<string, StatementStats>();

function record(sqlText: string, ms: number): void {
  const verb = sqlText.trim().split(/\s+/)[0]!.toLowerCase();
  const table = /(?:from|into|update)\s+"?(\w+)"?/i.exec(sqlText)?.[1] ?? '';
  const key = ['begin', 'commit', 'rollback'].includes(verb) ? verb : `${verb} ${table}`;
  const entry = statements.get(key) ?? { count: 0, ms: 0, max: 0 };
  entry.count += 1;
  entry.ms += ms;
  entry.max = Math.max(entry.max, ms);
  statements.set(key, entry);
}

/** The time in every statement of `statements`, summed (ms). */
export const msInStatements = (): number => [...statements.values()].reduce((sum, s) => sum + s.ms, 0);

/** The server's SQLite connection (pragmas, group commit, checkpointer) with every statement timed. */
function timed(sqlite: SqliteDatabase.Database) {
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      const statement = sqlite.prepare(sqlText);
      const timedCall =
        <A extends unknown[], R>(run: (...args: A) => R) =>
        (...args: A): R => {
          const started = performance.now();
          try {
            return run(...args);
          } finally {
            record(sqlText, performance.now() - started);
          }
        };
      return {
        reader: statement.reader,
        readonly: statement.readonly,
        all: timedCall((...args: unknown[]) => statement.all(...args)),
        run: timedCall((...args: unknown[]) => statement.run(...args)),
        iterate: timedCall((...args: unknown[]) => statement.iterate(...args)),
      };
    },
  };
}

/** The configured database, statements timed; PostgreSQL connections carry `applicationName`. */
export function timedDatabase(config: AppConfig, applicationName: string): Kysely<Database> {
  if (config.database.kind === 'sqlite') return connectDatabase(config.database, { wrapSqlite: timed });
  const pool = new pg.Pool({
    connectionString: config.database.url,
    max: config.database.poolSize,
    application_name: applicationName,
  });
  return new Kysely<Database>({
    dialect: new SharedDatabasePostgresDialect({ pool }),
    log: (event) => record(event.query.sql, event.queryDurationMillis),
  });
}

/** The bench's API seen through app.inject. */
export function injectedApi(app: FastifyInstance): BenchApi {
  return {
    url: '',
    async call(request: BenchRequest) {
      const res = await app.inject({
        method: request.method,
        url: request.path,
        ...(request.headers ? { headers: request.headers } : {}),
        ...(request.body !== undefined ? { payload: request.body } : {}),
      });
      return {
        status: res.statusCode,
        body: res.body,
        bytes: res.rawPayload,
        contentType: String(res.headers['content-type'] ?? ''),
      };
    },
  };
}

/** CPU (ms) used so far by the PostgreSQL server processes serving `applicationName` (same machine, /proc). */
export async function serverCpuMs(db: Kysely<Database>, applicationName: string): Promise<number> {
  const { rows } = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where application_name = ${applicationName}`.execute(db);
  return rows.reduce((sum, { pid }) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, clock ticks of 10 ms
  }, 0);
}

/** Runs `measure`, under the V8 CPU profiler when `profileFile` is given (written there after). */
export async function profiled<T>(profileFile: string | undefined, measure: () => Promise<T>): Promise<T> {
  if (!profileFile) return measure();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await measure();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    session.disconnect();
  }
}

/** Calls `once` `count` times, `concurrency` calls in flight at a time (as many connections would). */
export async function inFlight(count: number, concurrency: number, once: () => Promise<void>): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        await once();
      }
    }),
  );
}
