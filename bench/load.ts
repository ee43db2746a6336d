import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly connections: number;
  readonly durationSeconds: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly total: number;
}

/** Drives one URL with autocannon for a fixed time and summarises what it measured. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method,
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: options.durationSeconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}
