// `npx tsx bench/endpoint-probe.ts <scenario> [requests] [concurrency] [--postgres] [--profile=<file>]`:
// drives one scenario (quoteCreate, quoteRetrieve, policySummary, policyDetails, a screening row, …) in
// one process through the real app (app.inject: no sockets, no load generator) and says what a
// request costs: the app's CPU, statements by kind and the time spent in them, and on PostgreSQL
// the CPU of the server processes of its pool. CPU per request and statement counts move much
// less than req/s when the shared machine is busy; use them to compare changes.
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { freshDatabase } from './harness.js';
import { inFlight, injectedApi, msInStatements, profiled, serverCpuMs, statements, timedDatabase } from './probe.js';
import { SCENARIOS } from './scenarios.js';
import { prepareBenchDatabase } from './seed/database.js';

const usePostgres = process.argv.includes('--postgres');
const profileFile = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const [name = 'quoteCreate', requests = '3000', concurrency = '50'] = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'));
const N = Number(requests);
const C = Number(concurrency);
const WARM_UP = 500;
const APPLICATION_NAME = 'endpoint-probe';

const scenario = SCENARIOS.find((s) => s.name === name);
if (!scenario) throw new Error(`unknown scenario ${name}`);
const database = await freshDatabase(usePostgres);
try {
  // As bench servers run (bench/server.ts): no per-partner limits.
  const env = { ...database.env, LOG_LEVEL: 'silent', DEMO_DATA: 'true', RATE_LIMITS: 'false' };
  const fixtures = await prepareBenchDatabase(env);
  const config = loadConfig({ ...process.env, ...env });
  const db = timedDatabase(config, APPLICATION_NAME);
  const app = await buildApp({ config, db, clock: () => new Date() }, { logger: false });
  try {
    await app.ready();
    const api = injectedApi(app);
    const request = await scenario.prepare(api, fixtures, {
      engine: usePostgres ? 'postgres' : 'sqlite',
      durationSeconds: 1,
      connections: C,
      env,
      // A row with a supply (a screening row) gets one prepared request per call of the probe.
      screeningSupplyPerSecond: N + WARM_UP,
    });
    let bytes = 0;
    const once = async () => {
      const supplied = request.supply?.next();
      const res = await api.call({
        ...request,
        ...supplied,
        ...(supplied?.headers ? { headers: { ...request.headers, ...supplied.headers } } : {}),
      });
      if (res.status !== 200) throw new Error(`${res.status} ${res.body}`);
      bytes = res.body.length;
    };
    await inFlight(WARM_UP, C, once);
    statements.clear();
    const serverCpuBefore = usePostgres ? await serverCpuMs(db, APPLICATION_NAME) : 0;
    const { wall, used } = await profiled(profileFile, async () => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      await inFlight(N, C, once);
      return { wall: performance.now() - started, used: process.cpuUsage(cpu) };
    });
    const serverCpu = usePostgres ? (await serverCpuMs(db, APPLICATION_NAME)) - serverCpuBefore : 0;
    const inDatabase = msInStatements();
    const lines = [
      `${name}: ${N} requests, ${C} at a time (${config.database.kind}), ${bytes} bytes each: ${(N / (wall / 1000)).toFixed(0)}/s`,
      `per request: app CPU ${((used.user + used.system) / N).toFixed(0)} µs (system ${(used.system / N).toFixed(0)}), in database calls ${((inDatabase * 1000) / N).toFixed(0)} µs` +
        (usePostgres ? `, PostgreSQL server processes ${((serverCpu * 1000) / N).toFixed(0)} µs CPU` : ''),
      'statements per request (count, µs in the call):',
      ...[...statements.entries()]
        .sort((a, b) => b[1].ms - a[1].ms)
        .map(
          ([kind, s]) =>
            `  ${(s.count / N).toFixed(2).padStart(6)}  ${((s.ms * 1000) / N).toFixed(0).padStart(6)} µs  ${kind}`,
        ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
    await db.destroy();
  }
} finally {
  await database.drop();
}
