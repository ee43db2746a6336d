// `npm run bench:console`: each console page's latency on a database already seeded (SQLITE_PATH
// or DATABASE_URL, e.g. by `npm run bench:seed -- --count 1000000`): one connection asking one
// request after another (what one operator waits for a page), then `--connections` at once
// (throughput; latency there includes queueing). Issue 31: each page under 100 ms at 1M policies.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { loadConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { SEARCH_KINDS } from '../src/policy-search/service.js';
import { benchCommand } from './args.js';
import { cyclingSupply, sampleSearchTerms, searchPath } from './console-terms.js';
import { apiFor, drive } from './harness.js';
import type { LoadResult } from './load.js';
import type { BenchRequest } from './requests.js';
import { consoleSession } from './scenarios-console.js';
import { addReferrals } from './seed/referrals.js';
import { startApiServer } from './server.js';

interface Options {
  duration: string;
  connections: string;
  only?: string;
  out?: string;
  terms: string;
}

const options = benchCommand(
  'bench:console',
  [
    ['--duration <seconds>', 'seconds per measurement', '10'],
    ['--connections <n>', 'connections of the throughput measurement (0: none)', '50'],
    ['--only <names>', 'comma-separated page names'],
    ['--terms <n>', 'distinct terms (policies, referrals) each page goes round', '200'],
    ['--out <file>', 'also write the markdown table here'],
  ],
  "Each console page's latency at one connection and under load, on the configured database.",
)
  .parse()
  .opts<Options>();

const env: Record<string, string> = {
  DEMO_DATA: 'true',
  LOG_LEVEL: 'info',
  ...Object.fromEntries(['SQLITE_PATH', 'DATABASE_URL'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : []))),
};
const durationSeconds = Number(options.duration);
const connections = Number(options.connections);
const termCount = Number(options.terms);

/** Open referral ids and how many policies there are (the queue needs referrals: one per 250 policies). */
async function referralIds(): Promise<{ open: string[]; policies: number }> {
  const db = connectDatabase(loadConfig({ ...process.env, ...env }).database);
  try {
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('referral')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n ?? 0,
      );
    const policies = Number(
      (
        await db
          .selectFrom('policy_header')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
    const wanted = Math.max(40, Math.round((policies * 2) / 500));
    const have = await count();
    if (have < wanted) await addReferrals(env, wanted - have);
    const open = await db
      .selectFrom('referral as r')
      .innerJoin('quote as q', 'q.public_id', 'r.quote_id')
      .select('r.public_id')
      .where('r.status', 'in', ['REFERRED', 'INFORMATION_REQUESTED'])
      .limit(termCount)
      .execute();
    return { open: open.map((r) => r.public_id), policies };
  } finally {
    await db.destroy();
  }
}

const started = new Date().toISOString();
const load = () => loadavg().map((l) => l.toFixed(2));
const loadBefore = load();
const { open, policies } = await referralIds();
const terms = await sampleSearchTerms(env, termCount);
const round = (paths: readonly string[]) => ({ path: paths[0]!, supply: cyclingSupply(paths) });
const PAGES: readonly { name: string; request: Omit<BenchRequest, 'method' | 'headers'> }[] = [
  { name: 'referral queue', request: { path: '/console/referrals' } },
  { name: 'referral queue, brand', request: { path: '/console/referrals?brand=brandau' } },
  { name: 'referral queue, reason', request: { path: '/console/referrals?reason=MEDICAL_CONDITION' } },
  { name: 'referral queue, older than 48 h', request: { path: '/console/referrals?olderThanHours=48' } },
  { name: 'referral queue, page 3', request: { path: '/console/referrals?offset=100' } },
  { name: "a referral's page", request: round(open.map((id) => `/console/referrals/${id}`)) },
  ...SEARCH_KINDS.map((kind) => ({
    name: `policy search: ${kind}`,
    request: round(terms[kind].map((term) => searchPath(kind, term))),
  })),
  {
    name: 'policy search: surname, 3 letters',
    request: round(terms.traveller.map((term) => searchPath('traveller', term.slice(0, 3)))),
  },
  {
    name: "a policy's page",
    request: round(terms.policyNumber.map((n) => `/console/policies/${encodeURIComponent(n)}`)),
  },
  { name: 'work queues', request: { path: '/console/work' } },
  { name: 'work: attention', request: { path: '/console/work/attention' } },
  { name: 'work: failed deliveries', request: { path: '/console/work/deliveries' } },
  { name: 'work: disabled endpoints', request: { path: '/console/work/webhook-endpoints' } },
  { name: 'work: partners', request: { path: '/console/work/partners' } },
  { name: 'audit trail', request: { path: '/console/audit' } },
];
const wanted = options.only?.split(',').map((s) => s.trim());

const server = await startApiServer(env);
const rows: string[] = [];
try {
  const api = apiFor(server.url);
  const headers = await consoleSession(api, env);
  for (const page of PAGES.filter((p) => !wanted || wanted.includes(p.name))) {
    const request: BenchRequest = { method: 'GET', headers, ...page.request };
    const sample = await api.call(request);
    if (sample.status !== 200) throw new Error(`${page.name}: ${sample.status} ${sample.body.slice(0, 300)}`);
    await drive(server.url, request, { connections: 1, durationSeconds: Math.min(3, durationSeconds) });
    const one = await drive(server.url, request, { connections: 1, durationSeconds });
    const many: LoadResult | undefined =
      connections > 0 ? await drive(server.url, request, { connections, durationSeconds }) : undefined;
    const flags = [one, many].some((r) => r && (r.non2xx > 0 || r.errors > 0)) ? ' (non-2xx or errors)' : '';
    const row =
      `| ${page.name}${flags} | ${one.requestsPerSecond.toFixed(0)} | ${one.p50Ms} | ${one.p99Ms} | ` +
      (many ? `${many.requestsPerSecond.toFixed(0)} | ${many.p50Ms} | ${many.p99Ms} |` : '– | – | – |');
    rows.push(row);
    process.stderr.write(`${row}\n`);
  }
} finally {
  await server.stop();
}

const markdown = [
  `${started} · ${policies} stored policies · ${env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'} · ${cpus().length} cores · Node ${process.version}`,
  `load average (1, 5, 15 min) before: ${loadBefore.join(', ')}, after: ${load().join(', ')} · ${durationSeconds} s per measurement after 3 s of warm-up`,
  '',
  `| page | 1 connection req/s | p50 ms | p99 ms | ${connections} connections req/s | p50 ms | p99 ms |`,
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows,
  '',
].join('\n');
process.stdout.write(markdown);
if (options.out) writeFileSync(options.out, markdown);
