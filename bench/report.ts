import type { MeasuredLoad } from './harness.js';
import type { LoadResult } from './load.js';
import type { Engine, ScenarioTarget } from './scenarios.js';

export interface ScenarioReport {
  readonly name: string;
  readonly description: string;
  readonly endpoint: MeasuredLoad;
  readonly fastifyCeiling: MeasuredLoad;
  readonly nodeCeiling: MeasuredLoad;
  readonly ratioToFastify: number;
  readonly ratioToNode: number;
  readonly target?: string;
  readonly met?: boolean;
  /** Why the endpoint's numbers cannot be taken at face value (non-2xx answers, a supply that ran out). */
  readonly flags?: string[];
}

export interface BenchReport {
  readonly startedAt: string;
  readonly machine: { cores: number; cpu: string; node: string; database: string };
  readonly settings: { connections: number; durationSeconds: number; warmUpSeconds?: number };
  readonly scenarios: ScenarioReport[];
}

const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** Failed answers are never throughput: any non-2xx or error in a scenario's own run is flagged. */
export function flagsOf(endpoint: LoadResult): string[] {
  const flags: string[] = [];
  if (endpoint.supplyExhausted) flags.push(`request supply ran out: ${endpoint.supplyExhausted} requests after every prepared one was used`);
  if (endpoint.non2xx > 0) flags.push(`${endpoint.non2xx} non-2xx answers of ${endpoint.total}`);
  if (endpoint.errors > 0) flags.push(`${endpoint.errors} errors or timeouts`);
  return flags;
}

/** The target's wording and whether the run met it (a flagged run never meets an absolute rate). */
export function judge(target: ScenarioTarget, engine: Engine, endpoint: LoadResult, ratios: { fastify: number; node: number }): { target: string; met: boolean } {
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

const fixed = (n: number, digits = 0) => n.toFixed(digits);
const percent = (n: number) => `${(n * 100).toFixed(0)} %`;
const cpu = (load: MeasuredLoad) => (load.cpuMicrosPerRequest === undefined ? '–' : fixed(load.cpuMicrosPerRequest));

/** The Markdown table committed as bench/results/latest.md. */
export function toMarkdown(report: BenchReport): string {
  const { machine, settings } = report;
  const lines = [
    `# Benchmark results`,
    '',
    `${report.startedAt} · ${machine.cores} cores (${machine.cpu}) · Node ${machine.node} · ${machine.database} · ` +
      `${settings.connections} connections × ${settings.durationSeconds} s per server${settings.warmUpSeconds ? ` after ${settings.warmUpSeconds} s of warm-up` : ''}`,
    '',
    '| scenario | req/s | 2xx/s | non-2xx | p50 ms | p99 ms | Fastify ceiling req/s | node:http ceiling req/s | ÷ Fastify | ÷ node:http | target | met | CPU µs/req | Fastify CPU µs/req | node:http CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|',
  ];
  for (const s of report.scenarios) {
    const { endpoint } = s;
    lines.push(
      `| ${s.name} | ${fixed(endpoint.requestsPerSecond)} | ${endpoint.okPerSecond === undefined ? '–' : fixed(endpoint.okPerSecond)} | ${endpoint.non2xx} | ` +
        `${fixed(endpoint.p50Ms, 1)} | ${fixed(endpoint.p99Ms, 1)} | ` +
        `${fixed(s.fastifyCeiling.requestsPerSecond)} | ${fixed(s.nodeCeiling.requestsPerSecond)} | ${percent(s.ratioToFastify)} | ` +
        `${percent(s.ratioToNode)} | ${s.target ?? '–'} | ${s.met === undefined ? '–' : s.met ? 'yes' : 'no'}${s.flags?.length ? ' ⚠' : ''} | ` +
        `${cpu(endpoint)} | ${cpu(s.fastifyCeiling)} | ${cpu(s.nodeCeiling)} |`,
    );
  }
  lines.push(
    '',
    'Each ceiling server answers with the same response bytes, precomputed, in the same kind of process. ' +
      "CPU µs/req is the server process's own CPU time (user + system, from /proc) per answered request: " +
      'it moves less than req/s when other work shares the machine.',
    '',
  );
  const flagged = report.scenarios.filter((s) => s.flags?.length);
  if (flagged.length > 0) {
    lines.push('**Flagged** (⚠: failed answers are not throughput; the req/s column counts them, 2xx/s does not):', '');
    for (const s of flagged) lines.push(`- ${s.name}: ${s.flags!.join('; ')}`);
    lines.push('');
  }
  return lines.join('\n');
}
