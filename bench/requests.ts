/** What one benchmark drives: a request prepared through the real API before the clock starts. */
export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** When each request must differ (a purchase buys a quote once): what the next one sends instead. */
  readonly supply?: RequestSupply;
}

/** What a supplied request sends instead of the prepared one's path or body, and adds to its headers. */
export interface SuppliedRequest {
  readonly path?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

/**
 * A finite supply of distinct requests, prepared before the clock starts. When it runs out it
 * still answers (the load generator cannot wait), with a request the server refuses, and counts
 * it in `exhausted`: those answers are non-2xx and never pass for throughput.
 */
export interface RequestSupply {
  /** The path, body and/or headers (added to the request's own) of the next request. */
  next(): SuppliedRequest;
  /** Distinct requests prepared. */
  readonly size: number;
  /** Distinct requests handed out so far. */
  readonly used: number;
  /** Requests asked for after the supply ran out. */
  readonly exhausted: number;
}

/** The API under test, as a scenario prepares its request through it. */
export interface BenchApi {
  readonly url: string;
  /** `body` as text; `bytes` exactly as sent (a PDF is not text), which the ceilings answer with. */
  call(request: BenchRequest): Promise<{ status: number; body: string; bytes: Buffer; contentType: string }>;
}
