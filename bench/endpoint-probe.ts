// `npx tsx bench/endpoint-probe.ts <scenario> [requests] [concurrency] [--postgres] [--profile=<file>]`:
// drives one replayable scenario (quoteCreate, quoteRetrieve, policySummary, policyDetails, …) in
// one process through the real app (app.inject: no sockets, no load generator) and says what a
// request costs: the app's CPU, statements by kind and the time spent in them, and on PostgreSQL
// the CPU of the server processes of its pool. CPU per request and statement counts move much
// less than req/s when the shared machine is busy; use them to compare changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig, type AppConfig } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import { DurableSqliteDialect } from '../src/db/sqlite-dialect.js';
import { freshDatabase } from './harness.js';
import { SCENARIOS, type BenchApi, type BenchRequest } from './scenarios.js';
import { prepareBenchDatabase } from './seed/database.js';

const usePostgres = process.argv.includes('--postgres');
const profileFile = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const [name = 'quoteCreate', requests = '3000', concurrency = '50'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const N = Number(requests);
const C = Number(concurrency);
const WARM_UP = 500;
const APPLICATION_NAME = 'endpoint-probe';

const statements = new Map<string, { count: number; ms: number }>();
function record(sqlText: string, ms: number): void {
  const verb = sqlText.trim().split(/\s+/)[0]!.toLowerCase();
  const table = /(?:from|into|update)\s+"?(\w+)"?/i.exec(sqlText)?.[1] ?? '';
  const key = ['begin', 'commit', 'rollback'].includes(verb) ? verb : `${verb} ${table}`;
  const entry = statements.get(key) ?? { count: 0, ms: 0 };
  entry.count += 1;
  entry.ms += ms;
  statements.set(key, entry);
}

/** better-sqlite3 as the server opens it, with every statement timed. */
function timedSqlite(path: string) {
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      const statement = sqlite.prepare(sqlText);
      const timed =
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
        all: timed((...args: unknown[]) => statement.all(...args)),
        run: timed((...args: unknown[]) => statement.run(...args)),
        iterate: timed((...args: unknown[]) => statement.iterate(...args)),
      };
    },
  };
}

function timedDatabase(config: AppConfig): Kysely<Database> {
  if (config.database.kind === 'sqlite') return new Kysely<Database>({ dialect: new DurableSqliteDialect({ database: timedSqlite(config.database.path) }) });
  const pool = new pg.Pool({ connectionString: config.database.url, max: config.database.poolSize, application_name: APPLICATION_NAME });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => record(event.query.sql, event.queryDurationMillis) });
}

/** CPU (ms) used so far by the PostgreSQL server processes serving this pool (same machine, /proc). */
async function serverCpuMs(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${APPLICATION_NAME}`.execute(db);
  return rows.reduce((sum, { pid }) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, clock ticks of 10 ms
  }, 0);
}

const scenario = SCENARIOS.find((s) => s.name === name);
if (!scenario) throw new Error(`unknown scenario ${name}`);
const database = await freshDatabase(usePostgres);
try {
  const env = { ...database.env, LOG_LEVEL: 'silent', DEMO_DATA: 'true' };
  const fixtures = await prepareBenchDatabase(env);
  const config = loadConfig({ ...process.env, ...env });
  const db = timedDatabase(config);
  const app = await buildApp({ config, db, clock: () => new Date() }, { logger: false });
  try {
    await app.ready();
    const api: BenchApi = {
      url: '',
      async call(request: BenchRequest) {
        const res = await app.inject({ method: request.method, url: request.path, ...(request.headers ? { headers: request.headers } : {}), ...(request.body !== undefined ? { payload: request.body } : {}) });
        return { status: res.statusCode, body: res.body, contentType: String(res.headers['content-type'] ?? '') };
      },
    };
    const request = await scenario.prepare(api, fixtures, { engine: usePostgres ? 'postgres' : 'sqlite', durationSeconds: 1, connections: C, env });
    let bytes = 0;
    const once = async () => {
      const res = await api.call(request);
      if (res.status !== 200) throw new Error(`${res.status} ${res.body}`);
      bytes = res.body.length;
    };
    const run = async (count: number) => {
      let left = count;
      await Promise.all(
        Array.from({ length: C }, async () => {
          while (left > 0) {
            left -= 1;
            await once();
          }
        }),
      );
    };
    await run(WARM_UP);
    statements.clear();
    const session = new Session();
    if (profileFile) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const serverCpuBefore = usePostgres ? await serverCpuMs(db) : 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    await run(N);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const serverCpu = usePostgres ? (await serverCpuMs(db)) - serverCpuBefore : 0;
    if (profileFile) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(profile));
      session.disconnect();
    }
    const inDatabase = [...statements.values()].reduce((sum, s) => sum + s.ms, 0);
    const lines = [
      `${name}: ${N} requests, ${C} at a time (${config.database.kind}), ${bytes} bytes each: ${(N / (wall / 1000)).toFixed(0)}/s`,
      `per request: app CPU ${((used.user + used.system) / N).toFixed(0)} µs (system ${(used.system / N).toFixed(0)}), in database calls ${((inDatabase * 1000) / N).toFixed(0)} µs` +
        (usePostgres ? `, PostgreSQL server processes ${((serverCpu * 1000) / N).toFixed(0)} µs CPU` : ''),
      'statements per request (count, µs in the call):',
      ...[...statements.entries()].sort((a, b) => b[1].ms - a[1].ms).map(([kind, s]) => `  ${(s.count / N).toFixed(2).padStart(6)}  ${((s.ms * 1000) / N).toFixed(0).padStart(6)} µs  ${kind}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
    await db.destroy();
  }
} finally {
  await database.drop();
}
