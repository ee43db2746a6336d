import type { MeasuredLoad } from './harness.js';
import type { LoadResult } from './load.js';
import type { Engine, ScenarioTarget } from './scenario.js';
import { sustainedMarkdown, type SustainedReport } from './sustained-report.js';

/** One measurement of an endpoint and both its ceilings, taken back to back. */
export interface RoundResult {
  readonly endpoint: MeasuredLoad;
  readonly fastifyCeiling: MeasuredLoad;
  readonly nodeCeiling: MeasuredLoad;
  readonly ratioToFastify: number;
  readonly ratioToNode: number;
}

/** What each round of a scenario measured, when it ran more than once (`--rounds`). */
export interface RoundSummary {
  readonly requestsPerSecond: number;
  readonly okPerSecond?: number;
  readonly p99Ms: number;
  readonly ratioToFastify: number;
  readonly ratioToNode: number;
  readonly cpuMicrosPerRequest?: number;
}

/** A scenario's reported round (the median one, see `medianRound`) and, with `--rounds`, every round. */
export interface ScenarioReport extends RoundResult {
  readonly name: string;
  readonly description: string;
  readonly target?: string;
  readonly met?: boolean;
  /** Why the endpoint's numbers cannot be taken at face value (non-2xx answers, a supply that ran out). */
  readonly flags?: string[];
  /** Every round in the order run; the row above is the median one. Absent for a single round. */
  readonly rounds?: RoundSummary[];
}

export interface BenchReport {
  readonly startedAt: string;
  readonly machine: { cores: number; cpu: string; node: string; database: string };
  readonly settings: {
    connections: number;
    durationSeconds: number;
    /** Requests per server, when the run was sized by count (`--requests`) instead of `durationSeconds`. */
    requests?: number;
    warmUpSeconds?: number;
    rounds?: number;
  };
  readonly scenarios: ScenarioReport[];
  /** The sustained delivery row (bench/sustained.ts), when it ran. */
  readonly sustained?: SustainedReport;
}

const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** Failed answers are never throughput: any non-2xx or error in a scenario's own run is flagged. */
export function flagsOf(endpoint: LoadResult): string[] {
  const flags: string[] = [];
  if (endpoint.supplyExhausted)
    flags.push(`request supply ran out: ${endpoint.supplyExhausted} requests after every prepared one was used`);
  if (endpoint.non2xx > 0) flags.push(`${endpoint.non2xx} non-2xx answers of ${endpoint.total}`);
  if (endpoint.errors > 0) flags.push(`${endpoint.errors} errors or timeouts`);
  return flags;
}

/** The target's wording and whether the run met it (a flagged run never meets an absolute rate). */
export function judge(
  target: ScenarioTarget,
  engine: Engine,
  endpoint: LoadResult,
  ratios: { fastify: number; node: number },
): { target: string; met: boolean } {
  if (target.kind === 'rate') {
    const wanted = target.perSecond[engine];
    return {
      target: `≥ ${wanted} 2xx/s on ${ENGINE_NAMES[engine]}`,
      met: (endpoint.okPerSecond ?? 0) >= wanted && flagsOf(endpoint).length === 0,
    };
  }
  return {
    target: `≥ ${target.ratio * 100} % of ${target.ceiling}${target.p99Ms ? `, p99 < ${target.p99Ms} ms` : ''}`,
    met: ratios[target.ceiling] >= target.ratio && (!target.p99Ms || endpoint.p99Ms < target.p99Ms),
  };
}

/**
 * The number a scenario is judged by: its target's ratio, its 2xx rate for an absolute target,
 * and the ratio to `node:http` when it has no target.
 */
export function measureOf(target: ScenarioTarget | undefined): (round: RoundResult) => number {
  if (target?.kind === 'rate') return (round) => round.endpoint.okPerSecond ?? 0;
  if (target?.ceiling === 'fastify') return (round) => round.ratioToFastify;
  return (round) => round.ratioToNode;
}

/**
 * The round whose measure is the median (the lower middle one for an even count): one round
 * reported whole, so every column of the row comes from the same back-to-back measurement,
 * and neither a lucky nor an unlucky moment of a noisy machine decides the target.
 */
export function medianRound<T extends RoundResult>(rounds: readonly T[], measure: (round: T) => number): T {
  if (rounds.length === 0) throw new Error('no rounds measured');
  const sorted = [...rounds].sort((a, b) => measure(a) - measure(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export function summaryOf(round: RoundResult): RoundSummary {
  const { endpoint } = round;
  return {
    requestsPerSecond: endpoint.requestsPerSecond,
    ...(endpoint.okPerSecond === undefined ? {} : { okPerSecond: endpoint.okPerSecond }),
    p99Ms: endpoint.p99Ms,
    ratioToFastify: round.ratioToFastify,
    ratioToNode: round.ratioToNode,
    ...(endpoint.cpuMicrosPerRequest === undefined ? {} : { cpuMicrosPerRequest: endpoint.cpuMicrosPerRequest }),
  };
}

const fixed = (n: number, digits = 0) => n.toFixed(digits);
const percent = (n: number) => `${(n * 100).toFixed(0)} %`;
const range = (values: number[], show: (n: number) => string) =>
  `${show(Math.min(...values))}–${show(Math.max(...values))}`;
const roundsCell = (rounds: RoundSummary[]) =>
  `÷ Fastify ${range(
    rounds.map((r) => r.ratioToFastify * 100),
    fixed,
  )} %, ÷ node:http ${range(
    rounds.map((r) => r.ratioToNode * 100),
    fixed,
  )} %, ` +
  `2xx/s ${range(
    rounds.map((r) => r.okPerSecond ?? r.requestsPerSecond),
    fixed,
  )}, p99 ${range(
    rounds.map((r) => r.p99Ms),
    fixed,
  )} ms`;
const cpu = (load: MeasuredLoad) => (load.cpuMicrosPerRequest === undefined ? '–' : fixed(load.cpuMicrosPerRequest));

/** The Markdown table committed as bench/results/latest.md. */
export function toMarkdown(report: BenchReport): string {
  const { machine, settings } = report;
  const multiRound = report.scenarios.some((s) => s.rounds !== undefined);
  const lines = [
    `# Benchmark results`,
    '',
    `${report.startedAt} · ${machine.cores} cores (${machine.cpu}) · Node ${machine.node} · ${machine.database} · ` +
      `${settings.connections} connections × ${settings.requests === undefined ? `${settings.durationSeconds} s` : `${settings.requests} requests`} per server${settings.warmUpSeconds ? ` after ${settings.warmUpSeconds} s of warm-up` : ''}` +
      (settings.rounds && settings.rounds > 1 ? `, ${settings.rounds} rounds (each row is the median round)` : ''),
    '',
    '| scenario | req/s | 2xx/s | non-2xx | p50 ms | p99 ms | Fastify ceiling req/s | node:http ceiling req/s | ÷ Fastify | ÷ node:http | target | met | CPU µs/req | Fastify CPU µs/req | node:http CPU µs/req |' +
      (multiRound ? ' low–high over the rounds |' : ''),
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|' + (multiRound ? '---|' : ''),
  ];
  for (const s of report.scenarios) {
    const { endpoint } = s;
    lines.push(
      `| ${s.name} | ${fixed(endpoint.requestsPerSecond)} | ${endpoint.okPerSecond === undefined ? '–' : fixed(endpoint.okPerSecond)} | ${endpoint.non2xx} | ` +
        `${fixed(endpoint.p50Ms, 1)} | ${fixed(endpoint.p99Ms, 1)} | ` +
        `${fixed(s.fastifyCeiling.requestsPerSecond)} | ${fixed(s.nodeCeiling.requestsPerSecond)} | ${percent(s.ratioToFastify)} | ` +
        `${percent(s.ratioToNode)} | ${s.target ?? '–'} | ${s.met === undefined ? '–' : s.met ? 'yes' : 'no'}${s.flags?.length ? ' ⚠' : ''} | ` +
        `${cpu(endpoint)} | ${cpu(s.fastifyCeiling)} | ${cpu(s.nodeCeiling)} |` +
        (multiRound ? ` ${s.rounds ? roundsCell(s.rounds) : '–'} |` : ''),
    );
  }
  lines.push(
    '',
    'Each ceiling server answers with the same response bytes, precomputed, in the same kind of process. ' +
      (multiRound
        ? "Each round measures the endpoint and both ceilings back to back; the row is the round whose judged number (the target's ratio or rate, else ÷ node:http) is the median, the last column the spread over all rounds. "
        : '') +
      "CPU µs/req is the server process's own CPU time (user + system, from /proc) per answered request: " +
      'it moves less than req/s when other work shares the machine.',
    '',
  );
  const settled = report.scenarios.filter((s) => s.endpoint.settleSeconds !== undefined);
  for (const s of settled)
    lines.push(
      `${s.name}: its server's outbox worker emptied the outbox (documents, events) ${fixed(s.endpoint.settleSeconds!, 1)} s after the load ended; ` +
        'CPU µs/req counts its CPU until then (rendering, storing and mailing included).',
      '',
    );
  if (report.sustained) lines.push(...sustainedMarkdown(report.sustained));
  const flagged = report.scenarios.filter((s) => s.flags?.length);
  if (flagged.length > 0) {
    lines.push('**Flagged** (⚠: failed answers are not throughput; the req/s column counts them, 2xx/s does not):', '');
    for (const s of flagged) lines.push(`- ${s.name}: ${s.flags!.join('; ')}`);
    lines.push('');
  }
  return lines.join('\n');
}
