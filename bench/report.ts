import type { MeasuredLoad } from './harness.js';

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
}

export interface BenchReport {
  readonly startedAt: string;
  readonly machine: { cores: number; cpu: string; node: string; database: string };
  readonly settings: { connections: number; durationSeconds: number };
  readonly scenarios: ScenarioReport[];
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
      `${settings.connections} connections × ${settings.durationSeconds} s per server`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | Fastify ceiling req/s | node:http ceiling req/s | ÷ Fastify | ÷ node:http | target | met | CPU µs/req | Fastify CPU µs/req | node:http CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|',
  ];
  for (const s of report.scenarios) {
    lines.push(
      `| ${s.name} | ${fixed(s.endpoint.requestsPerSecond)} | ${fixed(s.endpoint.p50Ms, 1)} | ${fixed(s.endpoint.p99Ms, 1)} | ` +
        `${fixed(s.fastifyCeiling.requestsPerSecond)} | ${fixed(s.nodeCeiling.requestsPerSecond)} | ${percent(s.ratioToFastify)} | ` +
        `${percent(s.ratioToNode)} | ${s.target ?? '–'} | ${s.met === undefined ? '–' : s.met ? 'yes' : 'no'} | ` +
        `${cpu(s.endpoint)} | ${cpu(s.fastifyCeiling)} | ${cpu(s.nodeCeiling)} |`,
    );
  }
  lines.push(
    '',
    'Each ceiling server answers with the same response bytes, precomputed, in the same kind of process. ' +
      'CPU µs/req is the server process\'s own CPU time (user + system, from /proc) per answered request: ' +
      'it moves far less than req/s when other work shares the machine.',
    '',
  );
  return lines.join('\n');
}
