// The sustained delivery row (issue 35, item 3): purchases sold at a steady rate for the run's
// duration on a server whose outbox worker delivers, every e-mail to an SMTP sink and every partner
// event to a webhook receiver, both in the bench process. It reports what was sold and delivered
// per second, the delivery lag (arrival less creation) of what arrived during the load, and how
// long the backlog took to drain once the selling stopped.
import { messageIdFor } from '../src/documents/mail/compose.js';
import { POLICY_DOCUMENTS } from '../src/documents/messages.js';
import { apiFor } from './harness.js';
import { watchOutbox, type OutboxWatch } from './outbox.js';
import type { BenchApi } from './requests.js';
import { bearer, purchases, type BenchRun } from './scenario.js';
import { startApiServer } from './server.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { lagSummary, type SustainedReport } from './sustained-report.js';
import { registeredBenchReceiver, sharedBenchReceiver } from './webhook-receiver.js';

export const SUSTAINED_ROW = 'sustainedDelivery';

/** Purchases per second the row sells unless `--sell-rate` says: below each engine's purchase target. */
export const SELL_RATE = { sqlite: 100, postgres: 60 } as const;

/** Purchases unanswered at once at most: past it the pace is not kept and the row says so (`skipped`). */
const MAX_IN_FLIGHT = 64;
const DRAIN_MS = 600_000;

export interface SustainedContext {
  readonly api: BenchApi;
  readonly run: BenchRun;
  readonly outbox: OutboxWatch;
  readonly smtp: SmtpSink;
  readonly sellRate: number;
}

export async function measureSustained({
  api,
  run,
  outbox,
  smtp,
  sellRate,
}: SustainedContext): Promise<SustainedReport> {
  const headers = await bearer(api);
  await registeredBenchReceiver(api, headers);
  const receiver = await sharedBenchReceiver();
  const request = await purchases(api, run, SUSTAINED_ROW);
  const supply = request.supply!;
  await outbox.discardPending();
  receiver.lags.length = 0;
  receiver.recording = true;
  smtp.arrivals.clear();
  const started = Date.now();
  const total = Math.round(sellRate * run.durationSeconds);
  let inFlight = 0;
  let sold = 0;
  let failed = 0;
  let skipped = 0;
  const answers: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / sellRate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (inFlight >= MAX_IN_FLIGHT) {
      skipped++;
      continue;
    }
    const next = supply.next();
    inFlight++;
    answers.push(
      fetch(`${api.url}${next.path ?? request.path}`, {
        method: request.method,
        headers: { ...request.headers, ...next.headers },
        body: next.body ?? request.body ?? null,
      })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status >= 200 && res.status < 300) sold++;
          else failed++;
        })
        .catch(() => {
          failed++;
        })
        .finally(() => inFlight--),
    );
  }
  await Promise.all(answers);
  const loadEnded = Date.now();
  const loadSeconds = (loadEnded - started) / 1000;
  await outbox.drained(DRAIN_MS);
  const drainSeconds = (Date.now() - loadEnded) / 1000;
  receiver.recording = false;

  const emailLags = await emailLagsOf(outbox, smtp, new Date(started).toISOString());
  const webhookLags = receiver.lags;
  const during = <T extends { at: number }>(lags: readonly T[]) => lags.filter((l) => l.at <= loadEnded);
  return {
    name: SUSTAINED_ROW,
    description:
      'Purchases sold at a steady pace on a server whose worker delivers: each e-mail to an SMTP sink, each partner ' +
      'event (policy.issued, payment.captured, documents.sent) to a 204 receiver; lag = arrival less creation.',
    sellRate,
    sold,
    soldPerSecond: sold / loadSeconds,
    failed,
    skipped,
    emailsPerSecond: during(emailLags).length / loadSeconds,
    webhooksPerSecond: during(webhookLags).length / loadSeconds,
    emailLag: lagSummary(during(emailLags).map((l) => l.lagMs)),
    webhookLag: lagSummary(during(webhookLags).map((l) => l.lagMs)),
    drainSeconds,
    emailLagAll: lagSummary(emailLags.map((l) => l.lagMs)),
    webhookLagAll: lagSummary(webhookLags.map((l) => l.lagMs)),
  };
}

/** Each e-mail's arrival at the sink less its outbox message's creation (the purchase's commit). */
async function emailLagsOf(outbox: OutboxWatch, smtp: SmtpSink, since: string) {
  const [anyId] = smtp.arrivals.keys();
  const domain = anyId?.slice(anyId.lastIndexOf('@') + 1, -1) ?? 'localhost';
  const created = await outbox.createdSince(POLICY_DOCUMENTS, since);
  return created.flatMap(({ key, createdAt }) => {
    const at = smtp.arrivals.get(messageIdFor(key, domain));
    return at === undefined ? [] : [{ at, lagMs: at - Date.parse(createdAt) }];
  });
}

/**
 * The row on its own server of the run's database (its worker delivering, e-mails to a fresh SMTP
 * sink), stopped afterwards so that it competes with no other row.
 */
export async function runSustained(
  env: Record<string, string>,
  nodeArgs: string[],
  run: BenchRun,
  sellRate: number,
): Promise<SustainedReport> {
  const smtp = await startSmtpSink();
  const outbox = watchOutbox(env);
  try {
    const server = await startApiServer({ ...env, SMTP_URL: smtp.url }, nodeArgs, { outboxWorker: true });
    try {
      return await measureSustained({ api: apiFor(server.url), run, outbox, smtp, sellRate });
    } finally {
      await server.stop();
    }
  } finally {
    await outbox.close();
    await smtp.close();
  }
}
