// `npm run bench -- --scale`: policy summary, quote retrieve and console page latency as the number of stored
// policies grows. One database grows step by step (10k, then up to 1M by default); at each step
// the server is restarted on it and both reads are driven like any scenario.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Presets, SingleBar } from 'cli-progress';
import { apiFor, drive, freshDatabase } from './harness.js';
import type { LoadResult } from './load.js';
import { SCENARIOS } from './scenarios.js';
import { addPolicies, prepareBenchDatabase, type BenchFixtures } from './seed/database.js';
import { addReferrals } from './seed/referrals.js';
import { startApiServer } from './server.js';

export interface ScaleOptions {
  readonly sizes: readonly number[];
  readonly settings: { readonly connections: number; readonly durationSeconds: number };
  readonly usePostgres: boolean;
  readonly out: string;
  readonly nodeArgs: string[];
}

const MEASURED = ['policySummary', 'quoteRetrieve', 'consoleReferralQueue', 'consolePolicySearch'] as const;
/** Referrals seeded per stored policy (issue 31): one open and one decided per 500. */
const REFERRALS_PER_POLICY = 2 / 500;
/** Issue 7: policy summary p99 at the largest size within 1.2× of the p99 at the smallest. */
const P99_GROWTH_TARGET = 1.2;

export interface ScaleStep {
  readonly storedPolicies: number;
  readonly seedSeconds: number;
  readonly results: Record<(typeof MEASURED)[number], LoadResult>;
}

export interface ScaleReport {
  readonly startedAt: string;
  readonly machine: { cores: number; cpu: string; node: string; database: string };
  readonly settings: ScaleOptions['settings'];
  readonly steps: ScaleStep[];
  readonly p99Ratio: Record<(typeof MEASURED)[number], number>;
  readonly target: string;
  readonly met: boolean;
}

function progress(total: number): { update(done: number): void; stop(): void } {
  const bar = new SingleBar(
    {
      format: '  seeding {bar} {value}/{total} policies',
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 15_000,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}

async function measure(
  env: Record<string, string>,
  fixtures: BenchFixtures,
  options: ScaleOptions,
): Promise<ScaleStep['results']> {
  const server = await startApiServer(env, options.nodeArgs);
  try {
    const api = apiFor(server.url);
    const results: Partial<ScaleStep['results']> = {};
    for (const name of MEASURED) {
      const scenario = SCENARIOS.find((s) => s.name === name)!;
      const request = await scenario.prepare(api, fixtures, {
        engine: options.usePostgres ? 'postgres' : 'sqlite',
        ...options.settings,
        env,
      });
      const sample = await api.call(request);
      if (sample.status !== 200) throw new Error(`${name}: ${sample.status} ${sample.body}`);
      // A fresh server's code is cold: warm it up so that both steps are measured warm.
      await drive(server.url, request, {
        ...options.settings,
        durationSeconds: Math.min(3, options.settings.durationSeconds),
      });
      results[name] = await drive(server.url, request, options.settings);
      process.stderr.write(
        `  ${name}: p99 ${results[name].p99Ms} ms, ${results[name].requestsPerSecond.toFixed(0)} req/s\n`,
      );
    }
    return results as ScaleStep['results'];
  } finally {
    await server.stop();
  }
}

export async function runScale(options: ScaleOptions): Promise<void> {
  const startedAt = new Date().toISOString();
  const sizes = [...options.sizes].sort((a, b) => a - b);
  const database = await freshDatabase(options.usePostgres);
  const env = { ...database.env, LOG_LEVEL: 'info', DEMO_DATA: 'true' };
  const steps: ScaleStep[] = [];
  try {
    let stored = 0;
    let referrals = 0;
    let fixtures: BenchFixtures | undefined;
    for (const size of sizes) {
      const started = Date.now();
      const bar = progress(fixtures ? size - stored : Math.max(0, size - 10));
      if (!fixtures) {
        // The 10 fixture policies issued through the issuing commit count towards the first size.
        fixtures = await prepareBenchDatabase(env, Math.max(0, size - 10), (done) => bar.update(done));
        stored = Math.max(size, 10);
      } else {
        await addPolicies(env, size - stored, (done) => bar.update(done));
        stored = size;
      }
      bar.stop();
      await addReferrals(env, Math.round(size * REFERRALS_PER_POLICY) - referrals);
      referrals = Math.round(size * REFERRALS_PER_POLICY);
      const seedSeconds = (Date.now() - started) / 1000;
      process.stderr.write(`${stored} policies stored (seeding took ${seedSeconds.toFixed(1)} s)\n`);
      steps.push({ storedPolicies: stored, seedSeconds, results: await measure(env, fixtures, options) });
    }
  } finally {
    await database.drop();
  }
  const first = steps[0]!;
  const last = steps[steps.length - 1]!;
  const ratio = (name: (typeof MEASURED)[number]) => last.results[name].p99Ms / first.results[name].p99Ms;
  const p99Ratio = {
    policySummary: ratio('policySummary'),
    quoteRetrieve: ratio('quoteRetrieve'),
    consoleReferralQueue: ratio('consoleReferralQueue'),
    consolePolicySearch: ratio('consolePolicySearch'),
  };
  const report: ScaleReport = {
    startedAt,
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      database: database.label,
    },
    settings: options.settings,
    steps,
    p99Ratio,
    target: `policySummary p99 at ${last.storedPolicies} ≤ ${P99_GROWTH_TARGET}× p99 at ${first.storedPolicies}`,
    met: p99Ratio.policySummary <= P99_GROWTH_TARGET,
  };
  mkdirSync(options.out, { recursive: true });
  writeFileSync(join(options.out, 'scale.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(options.out, 'scale.md'), scaleMarkdown(report));
  process.stdout.write(scaleMarkdown(report));
}

export function scaleMarkdown(report: ScaleReport): string {
  const { machine, settings } = report;
  const lines = [
    '# Scale results',
    '',
    `${report.startedAt} · ${machine.cores} cores (${machine.cpu}) · Node ${machine.node} · ${machine.database} · ` +
      `${settings.connections} connections × ${settings.durationSeconds} s per measurement`,
    '',
    '| stored policies | seeding s | policySummary req/s | p50 ms | p99 ms | quoteRetrieve req/s | p50 ms | p99 ms | consoleReferralQueue req/s | p50 ms | p99 ms | consolePolicySearch req/s | p50 ms | p99 ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.steps.map((s) => {
      const cells = MEASURED.map((name) => {
        const r = s.results[name];
        return `${r.requestsPerSecond.toFixed(0)} | ${r.p50Ms} | ${r.p99Ms}`;
      });
      return `| ${s.storedPolicies} | ${s.seedSeconds.toFixed(0)} | ${cells.join(' | ')} |`;
    }),
    '',
    `p99 ratio largest ÷ smallest: policySummary ${report.p99Ratio.policySummary.toFixed(2)}×, quoteRetrieve ${report.p99Ratio.quoteRetrieve.toFixed(2)}×, consoleReferralQueue ${report.p99Ratio.consoleReferralQueue.toFixed(2)}×, consolePolicySearch ${report.p99Ratio.consolePolicySearch.toFixed(2)}× (issue 31: under 100 ms) · ` +
      `target ${report.target}: ${report.met ? 'met' : 'missed'}`,
    '',
  ];
  return lines.join('\n');
}
