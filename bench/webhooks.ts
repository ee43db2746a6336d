// `npm run bench:webhooks`: the outbox worker's delivery rate of partner events to a local
// receiver. A first server (no worker pass) records `--count` webhook.test events for one endpoint
// and stops; a second server of the same database then starts with its worker passing every 10 ms
// and the clock runs from its "serving" line until the receiver (in this process, answering 204)
// holds every delivery: events published (feed position, fan-out) and delivered signed per second,
// and the worker's CPU per event. Once per lane count in `--lanes`: WEBHOOK_CONCURRENCY (POSTs)
// and, the bench's one partner having the lanes to itself, WEBHOOK_CONCURRENCY_PER_PARTNER set to
// it (and OUTBOX_CONCURRENCY, the e-mails'; publishing has two lanes of its own since issue 35).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { benchCommand } from './args.js';
import { apiFor, freshDatabase } from './harness.js';
import { bearer } from './scenario.js';
import { prepareBenchDatabase } from './seed/database.js';
import { startApiServer } from './server.js';
import { startBenchReceiver } from './webhook-receiver.js';

interface Options {
  count: string;
  lanes: string;
  postgres?: boolean;
  out: string;
  cpuProf?: string;
}
const options = benchCommand('bench:webhooks', [
  ['--count <n>', 'events delivered per measurement', '2000'],
  ['--lanes <list>', 'lane counts to measure (publishing, webhook POSTs, the partner’s share)', '1,4,16'],
  ['--postgres', 'use PostgreSQL (DATABASE_URL, default the local test database)'],
  ['--out <dir>', 'where to write webhooks.json and webhooks.md', 'bench/results/events'],
  ['--cpu-prof <dir>', "run the worker's server under node --cpu-prof, profiles written to <dir>"],
])
  .parse()
  .opts<Options>();
const count = Number(options.count);
const laneCounts = options.lanes.split(',').map(Number);
if (!Number.isSafeInteger(count) || count < 1) throw new Error(`--count must be a whole number, got ${options.count}`);

const receiver = await startBenchReceiver();
const receiverUrl = receiver.url;

interface Result {
  readonly lanes: number;
  readonly events: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
  readonly cpuMicrosecondsPerEvent: number;
}
const results: Result[] = [];
const database = await freshDatabase(options.postgres === true);
try {
  const env = { ...database.env, LOG_LEVEL: 'info', DEMO_DATA: 'true' };
  await prepareBenchDatabase(env);
  for (const lanes of laneCounts) {
    // Record the events with no worker pass (the default bench server), then stop.
    const recorder = await startApiServer(env);
    try {
      const api = apiFor(recorder.url);
      const headers = { ...(await bearer(api)), 'content-type': 'application/json' };
      const created = await api.call({
        method: 'POST',
        path: '/partners/v1/brandau/webhooks',
        headers,
        body: JSON.stringify({ url: receiverUrl, eventTypes: ['webhook.test'] }),
      });
      if (created.status !== 201) throw new Error(`register: ${created.status} ${created.body}`);
      const { webhookId: id } = JSON.parse(created.body) as { webhookId: string };
      const { 'content-type': _json, ...plain } = headers;
      for (let sent = 0; sent < count; sent += 50) {
        const batch = Array.from({ length: Math.min(50, count - sent) }, () =>
          api.call({ method: 'POST', path: `/partners/v1/brandau/webhooks/${id}/test`, headers: plain }),
        );
        for (const answer of await Promise.all(batch))
          if (answer.status !== 202) throw new Error(`test event: ${answer.status} ${answer.body}`);
      }
      // Only this endpoint's events count: earlier endpoints are deleted before the next measurement.
      receiver.received = 0;
    } finally {
      await recorder.stop();
    }
    const worker = await startApiServer(
      {
        ...env,
        OUTBOX_CONCURRENCY: String(lanes),
        WEBHOOK_CONCURRENCY: String(lanes),
        WEBHOOK_CONCURRENCY_PER_PARTNER: String(lanes),
      },
      options.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProf] : [],
      { outboxWorker: true },
    );
    try {
      const cpu = worker.cpuSeconds() ?? 0;
      const started = performance.now();
      while (receiver.received < count) await new Promise((resolve) => setTimeout(resolve, 5));
      const seconds = (performance.now() - started) / 1000;
      const used = (worker.cpuSeconds() ?? 0) - cpu;
      results.push({
        lanes,
        events: count,
        seconds,
        eventsPerSecond: count / seconds,
        cpuMicrosecondsPerEvent: (used * 1e6) / count,
      });
      process.stderr.write(`${lanes} lane(s): ${(count / seconds).toFixed(0)} events/s\n`);
      // The next measurement's endpoint gets only its own events.
      const api = apiFor(worker.url);
      const headers = await bearer(api);
      const list = await api.call({ method: 'GET', path: '/partners/v1/brandau/webhooks', headers });
      for (const endpoint of (JSON.parse(list.body) as { webhooks: { webhookId: string }[] }).webhooks)
        await api.call({ method: 'DELETE', path: `/partners/v1/brandau/webhooks/${endpoint.webhookId}`, headers });
    } finally {
      await worker.stop();
    }
  }
} finally {
  await database.drop();
  receiver.close();
}

const report = {
  startedAt: new Date().toISOString(),
  machine: {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    database: database.label,
  },
  results,
};
const markdown = [
  '# Partner event delivery: the outbox worker to a local receiver',
  '',
  `${report.startedAt} · ${report.machine.cores} cores (${report.machine.cpu}) · Node ${report.machine.node} · ${database.label} · ` +
    `${count} webhook.test events recorded first, then one server's worker (10 ms passes) publishes and delivers them, signed, to a receiver in the bench process (204)`,
  '',
  '| lanes (OUTBOX_CONCURRENCY = WEBHOOK_CONCURRENCY = …_PER_PARTNER) | events | seconds | events/s | worker CPU µs per event |',
  '|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.lanes} | ${r.events} | ${r.seconds.toFixed(2)} | ${r.eventsPerSecond.toFixed(0)} | ${r.cpuMicrosecondsPerEvent.toFixed(0)} |`,
  ),
  '',
  'CPU per event counts publishing (feed position, one delivery per subscribed endpoint) and the delivery (sign, POST, record the attempt, SENT); the server process started before the clock.',
  '',
].join('\n');
mkdirSync(options.out, { recursive: true });
writeFileSync(join(options.out, 'webhooks.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(options.out, 'webhooks.md'), markdown);
process.stdout.write(markdown);
