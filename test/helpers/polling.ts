import { scaled } from './time-scale.js';

/**
 * Polls until `ready` holds (work a child server does on its own timers); throws after `timeoutMs`
 * (already scaled: pass `scaled(ms)`), by which time the work is not coming.
 */
export async function until(
  ready: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = scaled(20_000),
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits `ms` (to see that nothing more arrives). */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
