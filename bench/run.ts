// `npm run bench`: the real server on a fresh database, each scenario driven by autocannon and
// compared, in the same run, with a bare Fastify and a bare node:http server answering the same
// bytes. Results: bench/results/latest.json and latest.md. `--scale`: see scale.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { apiFor, drive, freshDatabase, measured, type MeasuredLoad } from './harness.js';
import {
  flagsOf,
  judge,
  measureOf,
  medianRound,
  summaryOf,
  toMarkdown,
  type BenchReport,
  type RoundResult,
  type ScenarioReport,
} from './report.js';
import { watchOutbox, type OutboxWatch } from './outbox.js';
import { runScale } from './scale.js';
import { checkSupplyOptions, withSupplyOptions, type SupplyOptions } from './supply-options.js';
import type { BenchApi } from './requests.js';
import type { BenchRun, Scenario } from './scenario.js';
import { SCENARIOS } from './scenarios.js';
import { runSustained, SELL_RATE, SUSTAINED_ROW } from './sustained.js';
import type { SustainedReport } from './sustained-report.js';
import { prepareBenchDatabase, type BenchFixtures } from './seed/database.js';
import { startApiServer, startCeilingServer, type ServerProcess } from './server.js';

interface Options extends SupplyOptions {
  duration: string;
  requests?: string;
  warmUp: string;
  connections: string;
  rounds: string;
  postgres?: boolean;
  only?: string;
  out: string;
  scale?: boolean;
  sizes: string;
  cpuProf?: string;
  nodeFlags?: string;
}

const program = withSupplyOptions(new Command())
  .name('bench')
  .description('Benchmark the partner API against same-bytes ceilings.')
  .option('--duration <seconds>', 'seconds of load per server', '10')
  .option(
    '--requests <n>',
    'exactly <n> requests per server instead of --duration of load: a run whose size does not depend on the machine (the smoke test)',
  )
  .option(
    '--warm-up <seconds>',
    'seconds of unmeasured load on each server first (a cold server answers its first requests slowly)',
    '0',
  )
  .option('--connections <n>', 'concurrent connections', '50')
  .option(
    '--rounds <n>',
    'measure each scenario and its ceilings this many times, alternating, and report the median round',
    '1',
  )
  .option('--postgres', 'use PostgreSQL (DATABASE_URL, default the local test database)')
  .option('--only <names>', 'comma-separated scenario names')
  .option('--out <dir>', 'where to write the reports', 'bench/results')
  .option('--scale', 'measure policySummary and quoteRetrieve at growing numbers of stored policies instead')
  .option('--sizes <list>', 'stored policies per scale step (with --scale)', '10000,1000000')
  .option('--cpu-prof <dir>', 'run the API server under node --cpu-prof, profiles written to <dir>')
  .option(
    '--node-flags <flags>',
    'extra Node or V8 flags for the API server, space-separated (e.g. "--max-semi-space-size=64")',
  );
const options = program.parse().opts<Options>();
const settings = {
  durationSeconds: Number(options.duration),
  connections: Number(options.connections),
  ...(options.requests === undefined ? {} : { requests: Number(options.requests) }),
};
const warmUp = { durationSeconds: Number(options.warmUp), connections: settings.connections };
const runSettings = settings;
const runWarmUp = warmUp;
/** A row's load settings: the run's, with fewer connections when the row asks for fewer. */
const rowSettings = (scenario: Scenario, base: typeof settings) =>
  scenario.connections === undefined
    ? base
    : { ...base, connections: Math.min(base.connections, scenario.connections) };
const rounds = Number(options.rounds);
if (!Number.isSafeInteger(rounds) || rounds < 1) {
  process.stderr.write(`--rounds must be a whole number of at least 1, got ${options.rounds}\n`);
  process.exit(2);
}
if (settings.requests !== undefined && !(Number.isSafeInteger(settings.requests) && settings.requests >= 1)) {
  process.stderr.write(`--requests must be a whole number of at least 1, got ${options.requests}\n`);
  process.exit(2);
}
checkSupplyOptions(options);
const usePostgres = Boolean(options.postgres ?? process.env.DATABASE_URL);
const nodeArgs = [
  ...(options.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProf] : []),
  ...(options.nodeFlags?.split(' ').filter(Boolean) ?? []),
];

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  if (options.scale) {
    const sizes = options.sizes.split(',').map((s) => Number(s.trim()));
    if (sizes.some((n) => !Number.isSafeInteger(n) || n < 0))
      throw new Error(`--sizes must list whole numbers, got ${options.sizes}`);
    await runScale({ sizes, settings, usePostgres, out: options.out, nodeArgs });
    return;
  }
  const wanted = options.only?.split(',').map((s) => s.trim());
  const scenarios = SCENARIOS.filter((s) => !wanted || wanted.includes(s.name));
  const sustainedWanted = !wanted || wanted.includes(SUSTAINED_ROW);
  if (scenarios.length === 0 && !sustainedWanted) throw new Error(`no scenario matches ${options.only ?? ''}`);
  const database = await freshDatabase(usePostgres);
  const work = mkdtempSync(join(tmpdir(), 'bench-bytes-'));
  const reports: ScenarioReport[] = [];
  let sustained: SustainedReport | undefined;
  try {
    const env = { ...database.env, LOG_LEVEL: 'info', DEMO_DATA: 'true' };
    const fixtures = await prepareBenchDatabase(env);
    const server = await startApiServer(env, nodeArgs);
    // A row with an outbox worker runs on a second server of the same database whose worker
    // delivers (documents, events), stopped after the row so that it competes with no other row.
    let withWorker: { server: ServerProcess; api: BenchApi; outbox: OutboxWatch } | undefined;
    const stopWorkerServer = async () => {
      const running = withWorker;
      withWorker = undefined;
      await running?.server.stop();
      await running?.outbox.close();
    };
    try {
      const api = apiFor(server.url);
      const run: BenchRun = {
        engine: usePostgres ? 'postgres' : 'sqlite',
        ...settings,
        warmUpSeconds: warmUp.durationSeconds,
        ...(options.changeSupply ? { changeSupplyPerSecond: Number(options.changeSupply) } : {}),
        ...(options.purchaseSupply ? { purchaseSupplyPerSecond: Number(options.purchaseSupply) } : {}),
        ...(options.screeningSupply ? { screeningSupplyPerSecond: Number(options.screeningSupply) } : {}),
        env,
        progress: (line) => process.stderr.write(`${line}\n`),
      };
      for (const scenario of scenarios) {
        if (scenario.outboxWorker) {
          const workerServer = await startApiServer(env, nodeArgs, { outboxWorker: true });
          withWorker = { server: workerServer, api: apiFor(workerServer.url), outbox: watchOutbox(env) };
        }
        const target = scenario.outboxWorker && withWorker ? withWorker : { server, api, outbox: undefined };
        const measuredRounds: RoundResult[] = [];
        for (let round = 1; round <= rounds; round++) {
          process.stderr.write(`${scenario.name}${rounds > 1 ? ` (round ${round} of ${rounds})` : ''}: endpoint…`);
          measuredRounds.push(await measureRound(scenario, { ...target, fixtures, run, work }));
          process.stderr.write(` ${measuredRounds.at(-1)!.endpoint.requestsPerSecond.toFixed(0)} req/s\n`);
        }
        const reported = medianRound(measuredRounds, measureOf(scenario.target));
        const { endpoint } = reported;
        const flags = [...new Set(measuredRounds.flatMap((r) => flagsOf(r.endpoint)))];
        const judged =
          scenario.target &&
          judge(scenario.target, run.engine, endpoint, {
            fastify: reported.ratioToFastify,
            node: reported.ratioToNode,
          });
        reports.push({
          name: scenario.name,
          description: scenario.description,
          ...reported,
          // A flag in any round fails the target: the median must not hide a round's failed answers.
          ...(judged ? { target: judged.target, met: judged.met && flags.length === 0 } : {}),
          ...(flags.length > 0 ? { flags } : {}),
          ...(rounds > 1 ? { rounds: measuredRounds.map(summaryOf) } : {}),
        });
        if (flags.length > 0) process.stderr.write(`  ⚠ ${flags.join('; ')}\n`);
        await stopWorkerServer();
      }
      if (sustainedWanted) {
        const sellRate = Number(options.sellRate ?? SELL_RATE[run.engine]);
        process.stderr.write(`${SUSTAINED_ROW}: ${sellRate} purchases/s…`);
        sustained = await runSustained(env, nodeArgs, run, sellRate);
        process.stderr.write(
          ` ${sustained.soldPerSecond.toFixed(0)} sold/s, drained in ${sustained.drainSeconds.toFixed(1)} s\n`,
        );
      }
    } finally {
      await server.stop();
      await stopWorkerServer();
    }
  } finally {
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  }
  const report: BenchReport = {
    startedAt,
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      database: database.label,
    },
    settings: {
      ...settings,
      ...(warmUp.durationSeconds > 0 ? { warmUpSeconds: warmUp.durationSeconds } : {}),
      ...(rounds > 1 ? { rounds } : {}),
    },
    scenarios: reports,
    ...(sustained ? { sustained } : {}),
  };
  mkdirSync(options.out, { recursive: true });
  writeFileSync(join(options.out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(options.out, 'latest.md'), toMarkdown(report));
  process.stdout.write(toMarkdown(report));
}

interface RoundContext {
  readonly api: BenchApi;
  readonly server: ServerProcess;
  readonly fixtures: BenchFixtures;
  readonly run: BenchRun;
  /** A directory for the sample's bytes, which the ceilings answer with. */
  readonly work: string;
  /** The outbox of a server whose worker delivers (`scenario.outboxWorker`). */
  readonly outbox: OutboxWatch | undefined;
}

/** How long the outbox of one round may take to be delivered after its load. */
const DOCUMENTS_DRAIN_MS = 300_000;

/**
 * One round: the scenario prepared afresh (a purchase round gets its own quotes), the endpoint
 * driven, then a bare Fastify and a bare node:http server answering the same bytes, back to back.
 */
async function measureRound(
  scenario: Scenario,
  { api, server, fixtures, run, work, outbox }: RoundContext,
): Promise<RoundResult> {
  // E-mails earlier rows enqueued (their server delivers none) are not this round's work.
  if (outbox) await outbox.discardPending();
  const request = await scenario.prepare(api, fixtures, run);
  const settings = rowSettings(scenario, runSettings);
  const warmUp = rowSettings(scenario, runWarmUp);
  const sample = await api.call(request);
  if (sample.status >= 300)
    throw new Error(`${scenario.name}: ${request.method} ${request.path} answered ${sample.status}: ${sample.body}`);
  if (warmUp.durationSeconds > 0) await drive(server.url, request, warmUp);
  // What the warm-up enqueued is delivered before the measured load starts.
  await outbox?.drained(DOCUMENTS_DRAIN_MS);
  const endpoint = await measured(
    server,
    () => drive(server.url, request, settings),
    outbox && (() => outbox.drained(DOCUMENTS_DRAIN_MS)),
  );
  const bytesFile = join(work, `${scenario.name}.body`);
  writeFileSync(bytesFile, sample.bytes);
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
  return {
    endpoint,
    fastifyCeiling,
    nodeCeiling,
    ratioToFastify: endpoint.requestsPerSecond / fastifyCeiling.requestsPerSecond,
    ratioToNode: endpoint.requestsPerSecond / nodeCeiling.requestsPerSecond,
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
