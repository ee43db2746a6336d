// `npm run bench`: the real server on a fresh database, each scenario driven by autocannon and
// compared, in the same run, with a bare Fastify and a bare node:http server answering the same
// bytes. Results: bench/results/latest.json and latest.md.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Command } from 'commander';
import pg from 'pg';
import { load, type LoadResult } from './load.js';
import { toMarkdown, type BenchReport, type ScenarioReport } from './report.js';
import { SCENARIOS, type BenchApi, type BenchRequest } from './scenarios.js';
import { startApiServer, startCeilingServer } from './server.js';

interface Options {
  duration: string;
  connections: string;
  postgres?: boolean;
  only?: string;
  out: string;
}

const program = new Command()
  .name('bench')
  .description('Benchmark the partner API against same-bytes ceilings.')
  .option('--duration <seconds>', 'seconds of load per server', '10')
  .option('--connections <n>', 'concurrent connections', '50')
  .option('--postgres', 'use PostgreSQL (DATABASE_URL, default the local test database)')
  .option('--only <names>', 'comma-separated scenario names')
  .option('--out <dir>', 'where to write latest.json and latest.md', 'bench/results');
const options = program.parse().opts<Options>();
const durationSeconds = Number(options.duration);
const connections = Number(options.connections);
const usePostgres = Boolean(options.postgres ?? process.env.DATABASE_URL);

/** A fresh database for the run: a temp SQLite file or a new PostgreSQL schema. */
async function freshDatabase(): Promise<{ env: Record<string, string>; label: string; drop(): Promise<void> }> {
  if (!usePostgres) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-'));
    return { env: { SQLITE_PATH: join(dir, 'bench.sqlite') }, label: 'SQLite (WAL, synchronous=FULL)', drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) };
  }
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const { rows } = await admin.query<{ server_version: string }>('show server_version');
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.toString() },
    label: `PostgreSQL ${rows[0]?.server_version ?? ''} (synchronous_commit=on)`,
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

function apiFor(url: string): BenchApi {
  return {
    url,
    async call(request: BenchRequest) {
      const res = await fetch(`${url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
      return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') ?? 'application/json' };
    },
  };
}

const drive = (url: string, request: BenchRequest): Promise<LoadResult> =>
  load({ url: `${url}${request.path}`, method: request.method, headers: request.headers, body: request.body, connections, durationSeconds });

async function main(): Promise<void> {
  const wanted = options.only?.split(',').map((s) => s.trim());
  const scenarios = SCENARIOS.filter((s) => !wanted || wanted.includes(s.name));
  if (scenarios.length === 0) throw new Error(`no scenario matches ${options.only ?? ''}`);
  const database = await freshDatabase();
  const work = mkdtempSync(join(tmpdir(), 'bench-bytes-'));
  const server = await startApiServer({ ...database.env, LOG_LEVEL: 'info', DEMO_DATA: 'true' });
  const reports: ScenarioReport[] = [];
  try {
    const api = apiFor(server.url);
    for (const scenario of scenarios) {
      const request = await scenario.prepare(api);
      const sample = await api.call(request);
      if (sample.status >= 300) throw new Error(`${scenario.name}: ${request.method} ${request.path} answered ${sample.status}: ${sample.body}`);
      process.stderr.write(`${scenario.name}: endpoint…`);
      const endpoint = await drive(server.url, request);
      const bytesFile = join(work, `${scenario.name}.body`);
      writeFileSync(bytesFile, sample.body);
      const ceilings: LoadResult[] = [];
      for (const kind of ['fastify', 'node'] as const) {
        process.stderr.write(` ${kind}…`);
        const ceiling = await startCeilingServer(kind, bytesFile, sample.contentType);
        try {
          ceilings.push(await drive(ceiling.url, request));
        } finally {
          await ceiling.stop();
        }
      }
      const [fastifyCeiling, nodeCeiling] = ceilings as [LoadResult, LoadResult];
      const ratioToFastify = endpoint.requestsPerSecond / fastifyCeiling.requestsPerSecond;
      const ratioToNode = endpoint.requestsPerSecond / nodeCeiling.requestsPerSecond;
      const target = scenario.target;
      const ratio = target?.ceiling === 'node' ? ratioToNode : ratioToFastify;
      reports.push({
        name: scenario.name,
        description: scenario.description,
        endpoint,
        fastifyCeiling,
        nodeCeiling,
        ratioToFastify,
        ratioToNode,
        ...(target
          ? {
              target: `≥ ${target.ratio * 100} % of ${target.ceiling}${target.p99Ms ? `, p99 < ${target.p99Ms} ms` : ''}`,
              met: ratio >= target.ratio && (!target.p99Ms || endpoint.p99Ms < target.p99Ms),
            }
          : {}),
      });
      process.stderr.write(` ${endpoint.requestsPerSecond.toFixed(0)} req/s\n`);
    }
  } finally {
    await server.stop();
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  }
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version, database: database.label },
    settings: { connections, durationSeconds },
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
