// `npx tsx bench/purchase-probe.ts [purchases] [concurrency] [--postgres] [--profile=<file>]`:
// buys ready quotes in one process through the real app (app.inject, no sockets, no load
// generator) and says what a purchase costs: statements by kind and the time spent in them
// (SQLite: the event loop is blocked meanwhile; PostgreSQL: the round trip, lock waits
// included), the app's CPU, and on PostgreSQL the CPU of the server processes of its pool.
// Counts do not depend on the machine's load; use them and CPU per purchase to compare changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig, type AppConfig } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import type { QuoteRequest } from '../src/quotes/schemas.js';
import { connectDatabase } from '../src/db/connect.js';
import { freshDatabase } from './harness.js';
import { purchaseSupply } from './quote-supply.js';
import { bearer, LOGIN, type BenchApi, type BenchRequest } from './scenarios.js';
import { prepareBenchDatabase } from './seed/database.js';
import { seedQuotes } from './seed/quotes.js';

const usePostgres = process.argv.includes('--postgres');
const profileFile = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const [purchases = '400', concurrency = '50'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const N = Number(purchases);
const C = Number(concurrency);
const WARM_UP = 20;
const APPLICATION_NAME = 'purchase-probe';

const statements = new Map<string, { count: number; ms: number; max: number }>();
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

/** The server's SQLite connection (pragmas, group commit) with every statement timed. */
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
        all: timedCall((...args: unknown[]) => statement.all(...args)),
        run: timedCall((...args: unknown[]) => statement.run(...args)),
        iterate: timedCall((...args: unknown[]) => statement.iterate(...args)),
      };
    },
  };
}

function timedDatabase(config: AppConfig): Kysely<Database> {
  if (config.database.kind === 'sqlite') return connectDatabase(config.database, { wrapSqlite: timed });
  const pool = new pg.Pool({ connectionString: config.database.url, max: config.database.poolSize, application_name: APPLICATION_NAME });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => record(event.query.sql, event.queryDurationMillis) });
}

/** The bench's API seen through app.inject. */
function injectedApi(app: FastifyInstance): BenchApi {
  return {
    url: '',
    async call(request: BenchRequest) {
      const res = await app.inject({ method: request.method, url: request.path, ...(request.headers ? { headers: request.headers } : {}), ...(request.body !== undefined ? { payload: request.body } : {}) });
      return { status: res.statusCode, body: res.body, contentType: String(res.headers['content-type'] ?? '') };
    },
  };
}

/** CPU (ms) used so far by the PostgreSQL server processes serving this pool (same machine, /proc). */
async function serverCpuMs(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${APPLICATION_NAME}`.execute(db);
  return rows.reduce((sum, { pid }) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, clock ticks of 10 ms
  }, 0);
}

const database = await freshDatabase(usePostgres);
try {
  const env = { ...database.env, LOG_LEVEL: 'silent', DEMO_DATA: 'true' };
  await prepareBenchDatabase(env);
  const config = loadConfig({ ...process.env, ...env });
  const db = timedDatabase(config);
  const app = await buildApp({ config, db, clock: () => new Date() }, { logger: false });
  try {
    await app.ready();
    const api = injectedApi(app);
    const request = await purchaseSupply(api, await bearer(api), N + WARM_UP, (body, count) =>
      seedQuotes(env, { brandCode: 'brandau', login: LOGIN.username, body: JSON.parse(body) as QuoteRequest, count }),
    );
    const latencies: number[] = [];
    const buy = async () => {
      const started = performance.now();
      const res = await api.call({ ...request, ...request.supply!.next() });
      if (res.status !== 200 || (JSON.parse(res.body) as { paymentResult?: string }).paymentResult !== 'APPROVED') throw new Error(`${res.status} ${res.body}`);
      latencies.push(performance.now() - started);
    };
    for (let i = 0; i < WARM_UP; i++) await buy();
    statements.clear();
    latencies.length = 0;
    const session = new Session();
    if (profileFile) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const serverCpuBefore = usePostgres ? await serverCpuMs(db) : 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const loop = performance.eventLoopUtilization();
    let left = N;
    await Promise.all(
      Array.from({ length: C }, async () => {
        while (left > 0) {
          left -= 1;
          await buy();
        }
      }),
    );
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const loopUsed = performance.eventLoopUtilization(loop);
    const serverCpu = usePostgres ? (await serverCpuMs(db)) - serverCpuBefore : 0;
    if (profileFile) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(profile));
      session.disconnect();
    }
    const sorted = latencies.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
    const inDatabase = [...statements.values()].reduce((sum, s) => sum + s.ms, 0);
    const lines = [
      `${N} purchases, ${C} at a time (${config.database.kind}): ${(N / (wall / 1000)).toFixed(0)}/s, latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
      // CPU is the whole process (worker threads included); the event loop's busy time is what one purchase takes of the serving thread.
      `per purchase: app CPU ${((used.user + used.system) / 1000 / N).toFixed(2)} ms, event loop busy ${(loopUsed.active / N).toFixed(2)} ms, in database calls ${(inDatabase / N).toFixed(2)} ms` +
        (usePostgres ? `, PostgreSQL server processes ${(serverCpu / N).toFixed(1)} ms CPU` : ''),
      'statements per purchase (count, ms in the call, slowest single call):',
      ...[...statements.entries()].sort((a, b) => b[1].ms - a[1].ms).map(([kind, s]) => `  ${(s.count / N).toFixed(2).padStart(6)}  ${(s.ms / N).toFixed(3).padStart(8)} ms  ${s.max.toFixed(1).padStart(6)} ms  ${kind}`),
    ];
    const { rows: sizes } = await sql<{ n: number | string }>`select avg(length(issue_request_json)) as n from purchase`.execute(db);
    lines.push(`stored issue request: ${Math.round(Number(sizes[0]?.n ?? 0))} characters per purchase row`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
    await db.destroy();
  }
} finally {
  await database.drop();
}
