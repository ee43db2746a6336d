// `npm run bench`: the real server on a fresh database, each scenario driven by autocannon and
// compared, in the same run, with a bare Fastify and a bare node:http server answering the same
// bytes. Results: bench/results/latest.json and latest.md. `--scale`: see scale.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { apiFor, drive, freshDatabase, measured, type MeasuredLoad } from './harness.js';
import { flagsOf, judge, toMarkdown, type BenchReport, type ScenarioReport } from './report.js';
import { runScale } from './scale.js';
import { SCENARIOS, type BenchRun } from './scenarios.js';
import { prepareBenchDatabase } from './seed/database.js';
import { startApiServer, startCeilingServer } from './server.js';

interface Options {
  duration: string;
  warmUp: string;
  connections: string;
  postgres?: boolean;
  only?: string;
  out: string;
  scale?: boolean;
  sizes: string;
  cpuProf?: string;
}

const program = new Command()
  .name('bench')
  .description('Benchmark the partner API against same-bytes ceilings.')
  .option('--duration <seconds>', 'seconds of load per server', '10')
  .option('--warm-up <seconds>', 'seconds of unmeasured load on each server first (a cold server answers its first requests slowly)', '0')
  .option('--connections <n>', 'concurrent connections', '50')
  .option('--postgres', 'use PostgreSQL (DATABASE_URL, default the local test database)')
  .option('--only <names>', 'comma-separated scenario names')
  .option('--out <dir>', 'where to write the reports', 'bench/results')
  .option('--scale', 'measure policySummary and quoteRetrieve at growing numbers of stored policies instead')
  .option('--sizes <list>', 'stored policies per scale step (with --scale)', '10000,1000000')
  .option('--cpu-prof <dir>', 'run the API server under node --cpu-prof, profiles written to <dir>');
const options = program.parse().opts<Options>();
const settings = { durationSeconds: Number(options.duration), connections: Number(options.connections) };
const warmUp = { ...settings, durationSeconds: Number(options.warmUp) };
const usePostgres = Boolean(options.postgres ?? process.env.DATABASE_URL);
const nodeArgs = options.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProf] : [];

async function main(): Promise<void> {
  if (options.scale) {
    const sizes = options.sizes.split(',').map((s) => Number(s.trim()));
    if (sizes.some((n) => !Number.isSafeInteger(n) || n < 0)) throw new Error(`--sizes must list whole numbers, got ${options.sizes}`);
    await runScale({ sizes, settings, usePostgres, out: options.out, nodeArgs });
    return;
  }
  const wanted = options.only?.split(',').map((s) => s.trim());
  const scenarios = SCENARIOS.filter((s) => !wanted || wanted.includes(s.name));
  if (scenarios.length === 0) throw new Error(`no scenario matches ${options.only ?? ''}`);
  const database = await freshDatabase(usePostgres);
  const work = mkdtempSync(join(tmpdir(), 'bench-bytes-'));
  const reports: ScenarioReport[] = [];
  try {
    const env = { ...database.env, LOG_LEVEL: 'info', DEMO_DATA: 'true' };
    const fixtures = await prepareBenchDatabase(env);
    const server = await startApiServer(env, nodeArgs);
    try {
      const api = apiFor(server.url);
      const run: BenchRun = { engine: usePostgres ? 'postgres' : 'sqlite', ...settings, warmUpSeconds: warmUp.durationSeconds, env, progress: (line) => process.stderr.write(`${line}\n`) };
      for (const scenario of scenarios) {
        const request = await scenario.prepare(api, fixtures, run);
        const sample = await api.call(request);
        if (sample.status >= 300) throw new Error(`${scenario.name}: ${request.method} ${request.path} answered ${sample.status}: ${sample.body}`);
        process.stderr.write(`${scenario.name}: endpoint…`);
        if (warmUp.durationSeconds > 0) await drive(server.url, request, warmUp);
        const endpoint = await measured(server, () => drive(server.url, request, settings));
        const bytesFile = join(work, `${scenario.name}.body`);
        writeFileSync(bytesFile, sample.body);
        const ceilings: MeasuredLoad[] = [];
        for (const kind of ['fastify', 'node'] as const) {
          process.stderr.write(` ${kind}…`);
          const ceiling = await startCeilingServer(kind, bytesFile, sample.contentType);
          try {
            // The sample request every time: a ceiling answers the same bytes whatever it is sent.
            const { supply: _supply, ...fixedRequest } = request;
            if (warmUp.durationSeconds > 0) await drive(ceiling.url, fixedRequest, warmUp);
            ceilings.push(await measured(ceiling, () => drive(ceiling.url, fixedRequest, settings)));
          } finally {
            await ceiling.stop();
          }
        }
        const [fastifyCeiling, nodeCeiling] = ceilings as [MeasuredLoad, MeasuredLoad];
        const ratioToFastify = endpoint.requestsPerSecond / fastifyCeiling.requestsPerSecond;
        const ratioToNode = endpoint.requestsPerSecond / nodeCeiling.requestsPerSecond;
        const flags = flagsOf(endpoint);
        reports.push({
          name: scenario.name,
          description: scenario.description,
          endpoint,
          fastifyCeiling,
          nodeCeiling,
          ratioToFastify,
          ratioToNode,
          ...(scenario.target ? judge(scenario.target, run.engine, endpoint, { fastify: ratioToFastify, node: ratioToNode }) : {}),
          ...(flags.length > 0 ? { flags } : {}),
        });
        process.stderr.write(` ${endpoint.requestsPerSecond.toFixed(0)} req/s${flags.length > 0 ? ` (⚠ ${flags.join('; ')})` : ''}\n`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  }
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version, database: database.label },
    settings: { ...settings, ...(warmUp.durationSeconds > 0 ? { warmUpSeconds: warmUp.durationSeconds } : {}) },
    scenarios: reports,
  };
  mkdirSync(options.out, { recursive: true });
  writeFileSync(join(options.out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(options.out, 'latest.md'), toMarkdown(report));
  process.stdout.write(toMarkdown(report));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
