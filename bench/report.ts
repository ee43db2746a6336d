import type { LoadResult } from './load.js';

export interface ScenarioReport {
  readonly name: string;
  readonly description: string;
  readonly endpoint: LoadResult;
  readonly fastifyCeiling: LoadResult;
  readonly nodeCeiling: LoadResult;
  readonly ratioToFastify: number;
  readonly ratioToNode: number;
  readonly target?: string;
  readonly met?: boolean;
}

export interface BenchReport {
  readonly startedAt: string;
  readonly machine: { cores: number; cpu: string; node: string; database: string };
  readonly settings: { connections: number; durationSeconds: number };
  readonly scenarios: ScenarioReport[];
}

const fixed = (n: number, digits = 0) => n.toFixed(digits);
const percent = (n: number) => `${(n * 100).toFixed(0)} %`;

/** The Markdown table committed as bench/results/latest.md. */
export function toMarkdown(report: BenchReport): string {
  const { machine, settings } = report;
  const lines = [
    `# Benchmark results`,
    '',
    `${report.startedAt} · ${machine.cores} cores (${machine.cpu}) · Node ${machine.node} · ${machine.database} · ` +
      `${settings.connections} connections × ${settings.durationSeconds} s per server`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | Fastify ceiling req/s | node:http ceiling req/s | ÷ Fastify | ÷ node:http | target | met |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const s of report.scenarios) {
    lines.push(
      `| ${s.name} | ${fixed(s.endpoint.requestsPerSecond)} | ${fixed(s.endpoint.p50Ms, 1)} | ${fixed(s.endpoint.p99Ms, 1)} | ` +
        `${fixed(s.fastifyCeiling.requestsPerSecond)} | ${fixed(s.nodeCeiling.requestsPerSecond)} | ${percent(s.ratioToFastify)} | ` +
        `${percent(s.ratioToNode)} | ${s.target ?? '–'} | ${s.met === undefined ? '–' : s.met ? 'yes' : 'no'} |`,
    );
  }
  lines.push('', 'Each ceiling server answers with the same response bytes, precomputed, in the same kind of process.', '');
  return lines.join('\n');
}
