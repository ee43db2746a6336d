import type { Db } from '../../src/db/database.js';
import type { OutboxHandler, OutboxKind } from '../../src/db/outbox/kinds.js';
import { startOutboxWorker, type OutboxWorker, type OutboxWorkerOptions } from '../../src/db/outbox/worker.js';

/** A clock the test moves by hand. */
export function manualClock(start = '2026-11-27T10:00:00.000Z') {
  let now = new Date(start);
  return {
    clock: () => now,
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
    iso: () => now.toISOString(),
  };
}

export const OPTIONS = {
  intervalMs: 1000,
  leaseSeconds: 60,
  maxAttempts: 3,
  baseBackoffMs: 1000,
  concurrency: 1,
  stopGraceMs: 1000,
  timer: false,
} as const;

/** A worker without a timer (passes only through runOnce), jitter pinned to its lowest value. */
export function testWorker(
  db: Db,
  clock: () => Date,
  handlers: Record<string, OutboxHandler | OutboxKind>,
  options: Partial<OutboxWorkerOptions> = {},
): OutboxWorker {
  return startOutboxWorker({ db, clock, random: () => 0 }, handlers, { ...OPTIONS, ...options });
}
