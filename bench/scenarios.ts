/** What one benchmark drives: a request prepared through the real API before the clock starts. */
export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface BenchApi {
  readonly url: string;
  call(request: BenchRequest): Promise<{ status: number; body: string; contentType: string }>;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  /** Which ceiling the target ratio is measured against, and the ratio required (0–1). */
  readonly target?: { readonly ceiling: 'fastify' | 'node'; readonly ratio: number; readonly p99Ms?: number };
  prepare(api: BenchApi): Promise<BenchRequest>;
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'health',
    description: 'GET /health: the smallest request the server answers (harness check).',
    prepare: () => Promise.resolve({ method: 'GET', path: '/health' }),
  },
];
