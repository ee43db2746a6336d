/** Retry rules: which answers are worth another try, and how long to wait before it. */

const RETRYABLE_STATUS = new Set([408, 429, 503]);
export const IN_PROGRESS_CODE = 'IDEMPOTENCY_REQUEST_IN_PROGRESS';
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

export function isRetryableStatus(status: number, firstCode: string | undefined): boolean {
  return RETRYABLE_STATUS.has(status) || (status === 409 && firstCode === IN_PROGRESS_CODE);
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Capped exponential back-off with full jitter; a server's Retry-After wins when it is longer. */
export function backoffMs(attempt: number, retryAfter: number | undefined): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  const jittered = ceiling / 2 + Math.random() * (ceiling / 2);
  return retryAfter === undefined ? jittered : Math.max(retryAfter, Math.min(jittered, retryAfter + 250));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
