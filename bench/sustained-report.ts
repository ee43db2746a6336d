// The sustained delivery row's report (bench/sustained.ts): its numbers and its Markdown table.

export interface LagSummary {
  readonly count: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

export interface SustainedReport {
  readonly name: string;
  readonly description: string;
  /** The pace asked for, and the purchases answered 2xx per second of load. */
  readonly sellRate: number;
  readonly sold: number;
  readonly soldPerSecond: number;
  readonly failed: number;
  /** Purchases not started on time because `MAX_IN_FLIGHT` were unanswered (the server fell behind the pace). */
  readonly skipped: number;
  /** E-mails and webhooks arrived per second of load. */
  readonly emailsPerSecond: number;
  readonly webhooksPerSecond: number;
  /** Lag of what arrived during the load. */
  readonly emailLag: LagSummary;
  readonly webhookLag: LagSummary;
  /** Seconds after the load until nothing was PENDING. */
  readonly drainSeconds: number;
  /** Lag of everything the load caused, drain included. */
  readonly emailLagAll: LagSummary;
  readonly webhookLagAll: LagSummary;
}

export function lagSummary(lags: readonly number[]): LagSummary {
  const sorted = [...lags].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { count: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? 0 };
}

const ms = (lag: LagSummary) => `${lag.p50Ms.toFixed(0)} / ${lag.p99Ms.toFixed(0)} / ${lag.maxMs.toFixed(0)}`;

export function sustainedMarkdown(r: SustainedReport): string[] {
  return [
    `**${r.name}**: ${r.description}`,
    '',
    '| sell rate /s | sold /s | failed | skipped | e-mails /s | webhooks /s | e-mail lag p50 / p99 / max ms | webhook lag p50 / p99 / max ms | drain s | e-mail lag, drain included | webhook lag, drain included |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${r.sellRate} | ${r.soldPerSecond.toFixed(1)} | ${r.failed} | ${r.skipped} | ${r.emailsPerSecond.toFixed(1)} | ` +
      `${r.webhooksPerSecond.toFixed(1)} | ${ms(r.emailLag)} | ${ms(r.webhookLag)} | ${r.drainSeconds.toFixed(1)} | ` +
      `${ms(r.emailLagAll)} | ${ms(r.webhookLagAll)} |`,
    '',
    "Lag: arrival at the SMTP sink or the receiver less the e-mail message's creation (the purchase's commit) or the " +
      "event's `timestamp`; the first columns count what arrived while selling, the last two everything the load caused. " +
      'Drain: seconds after the last purchase was answered until no message was PENDING.',
    '',
  ];
}
