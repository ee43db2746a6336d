import { PartnerApiError, notificationsOf } from './errors.js';
import { backoffMs, isRetryableStatus, retryAfterMs, sleep } from './retry.js';
import type { TokenKeeper } from './auth.js';

/** Options a caller may set on any one call. */
export interface RequestOptions {
  /** The Idempotency-Key of a keyed call; one is made per call when omitted, kept across its retries. */
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
  /** Milliseconds per attempt. */
  readonly timeout?: number;
  readonly maxRetries?: number;
  readonly headers?: Record<string, string>;
}

export interface TransportOptions {
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly tokens: TokenKeeper;
}

export interface Call {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  /** Money-moving or otherwise keyed: sends an Idempotency-Key and may then be retried. */
  readonly keyed?: boolean;
  /** A POST the server documents as safe to repeat without a key (e.g. answering screening questions): retried. */
  readonly repeatable?: boolean;
  /** How the success is read: JSON (default), text (CSV) or bytes (PDF). */
  readonly read?: 'json' | 'text' | 'bytes';
  /** The `Accept` header (default `application/json`). */
  readonly accept?: string;
}

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

export class Transport {
  constructor(private readonly options: TransportOptions) {}

  async send<T>(call: Call, options: RequestOptions = {}): Promise<T> {
    const url = this.url(call);
    const key = call.keyed ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    const retryable = IDEMPOTENT.has(call.method) || key !== undefined || call.repeatable === true;
    const maxRetries = retryable ? (options.maxRetries ?? this.options.maxRetries) : 0;
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const token = await this.options.tokens.accessToken();
      let response: Response;
      try {
        response = await this.attempt(url, call, token, key, options);
      } catch (cause) {
        if (options.signal?.aborted) throw cause;
        if (attempt >= maxRetries) throw new PartnerApiError(0, [], undefined, 'Network error', { cause });
        await sleep(backoffMs(attempt, undefined), options.signal);
        continue;
      }
      if (response.ok) return (await readSuccess(response, call.read ?? 'json')) as T;
      const body = await readJson(response).catch(() => undefined);
      const errors = notificationsOf(body);
      if (response.status === 401 && !refreshed) {
        refreshed = true;
        await this.options.tokens.renew(token);
        attempt--;
        continue;
      }
      if (attempt < maxRetries && isRetryableStatus(response.status, errors[0]?.code)) {
        await sleep(backoffMs(attempt, retryAfterMs(response.headers.get('retry-after'))), options.signal);
        continue;
      }
      throw new PartnerApiError(response.status, errors, response.headers.get('x-request-id') ?? undefined);
    }
  }

  private url(call: Call): string {
    const url = new URL(this.options.baseUrl.replace(/\/$/, '') + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  private async attempt(
    url: string,
    call: Call,
    token: string,
    key: string | undefined,
    options: RequestOptions,
  ): Promise<Response> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error('Timed out')), options.timeout ?? this.options.timeout);
    const abort = () => timeout.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      const headers: Record<string, string> = {
        accept: call.accept ?? 'application/json',
        authorization: `Bearer ${token}`,
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key === undefined ? {} : { 'idempotency-key': key }),
        ...options.headers,
      };
      const response = await this.options.fetch(url, {
        method: call.method,
        headers,
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
        signal: timeout.signal,
      });
      if (call.read === 'bytes' && response.ok) {
        // Read inside the timeout, so a stalled body is an attempt that failed.
        const bytes = await response.arrayBuffer();
        return new Response(bytes, { status: response.status, headers: response.headers });
      }
      const text = await response.text();
      return new Response(response.status === 204 ? null : text, {
        status: response.status,
        headers: response.headers,
      });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
    }
  }
}

function readSuccess(response: Response, read: 'json' | 'text' | 'bytes'): Promise<unknown> {
  if (read === 'bytes') return response.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  return read === 'text' ? response.text() : readJson(response);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}
