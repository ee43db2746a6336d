/** After the abort, how long a stop still waits for deliveries to settle. */
export const ABORT_SETTLE_MS = 500;

const late = (ms: number) => new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms));

/**
 * A worker's stop within a bound: waits for `finished` up to `graceMs`, then calls `abort` and waits
 * ABORT_SETTLE_MS more; resolves true when it finished, false when it was given up on.
 */
export async function boundedStop(finished: Promise<void>, graceMs: number, abort: () => void): Promise<boolean> {
  const done = finished.then(() => 'finished' as const);
  if ((await Promise.race([done, late(graceMs)])) === 'finished') return true;
  abort();
  return (await Promise.race([done, late(ABORT_SETTLE_MS)])) === 'finished';
}
