// `npx tsx bench/purchase-probe.ts [purchases] [concurrency] [--postgres] [--profile=<file>]`:
// buys ready quotes in one process through the real app (app.inject, no sockets, no load
// generator) and says what a purchase costs: statements by kind and the time spent in them
// (SQLite: the event loop is blocked meanwhile; PostgreSQL: the round trip, lock waits
// included), the app's CPU, and on PostgreSQL the CPU of the server processes of its pool.
// Counts do not depend on the machine's load; use them and CPU per purchase to compare changes.
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import type { QuoteRequest } from '../src/quotes/schemas.js';
import { freshDatabase } from './harness.js';
import { inFlight, injectedApi, msInStatements, profiled, serverCpuMs, statements, timedDatabase } from './probe.js';
import { purchaseSupply } from './quote-supply.js';
import { bearer, LOGIN } from './scenario.js';
import { prepareBenchDatabase } from './seed/database.js';
import { seedQuotes } from './seed/quotes.js';

const usePostgres = process.argv.includes('--postgres');
const profileFile = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const [purchases = '400', concurrency = '50'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const N = Number(purchases);
const C = Number(concurrency);
const WARM_UP = 20;
const APPLICATION_NAME = 'purchase-probe';

const database = await freshDatabase(usePostgres);
try {
  const env = { ...database.env, LOG_LEVEL: 'silent', DEMO_DATA: 'true' };
  await prepareBenchDatabase(env);
  const config = loadConfig({ ...process.env, ...env });
  const db = timedDatabase(config, APPLICATION_NAME);
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
      if (res.status !== 200 || (JSON.parse(res.body) as { paymentResult?: string }).paymentResult !== 'APPROVED')
        throw new Error(`${res.status} ${res.body}`);
      latencies.push(performance.now() - started);
    };
    for (let i = 0; i < WARM_UP; i++) await buy();
    statements.clear();
    latencies.length = 0;
    const serverCpuBefore = usePostgres ? await serverCpuMs(db, APPLICATION_NAME) : 0;
    const { wall, used, loopUsed } = await profiled(profileFile, async () => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const loop = performance.eventLoopUtilization();
      await inFlight(N, C, buy);
      return {
        wall: performance.now() - started,
        used: process.cpuUsage(cpu),
        loopUsed: performance.eventLoopUtilization(loop),
      };
    });
    const serverCpu = usePostgres ? (await serverCpuMs(db, APPLICATION_NAME)) - serverCpuBefore : 0;
    const sorted = latencies.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
    const inDatabase = msInStatements();
    const lines = [
      `${N} purchases, ${C} at a time (${config.database.kind}): ${(N / (wall / 1000)).toFixed(0)}/s, latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
      // CPU is the whole process (worker threads included); the event loop's busy time is what one purchase takes of the serving thread.
      `per purchase: app CPU ${((used.user + used.system) / 1000 / N).toFixed(2)} ms, event loop busy ${(loopUsed.active / N).toFixed(2)} ms, in database calls ${(inDatabase / N).toFixed(2)} ms` +
        (usePostgres ? `, PostgreSQL server processes ${(serverCpu / N).toFixed(1)} ms CPU` : ''),
      'statements per purchase (count, ms in the call, slowest single call):',
      ...[...statements.entries()]
        .sort((a, b) => b[1].ms - a[1].ms)
        .map(
          ([kind, s]) =>
            `  ${(s.count / N).toFixed(2).padStart(6)}  ${(s.ms / N).toFixed(3).padStart(8)} ms  ${s.max.toFixed(1).padStart(6)} ms  ${kind}`,
        ),
    ];
    const { rows: sizes } = await sql<{
      n: number | string;
    }>`select avg(length(issue_request_json)) as n from purchase`.execute(db);
    lines.push(`stored issue request: ${Math.round(Number(sizes[0]?.n ?? 0))} characters per purchase row`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
    await db.destroy();
  }
} finally {
  await database.drop();
}
