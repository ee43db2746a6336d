import { DATABASE_RETRY_AFTER_SECONDS, holdsStorageFault } from './faults.js';

/**
 * Whether the database's storage refused a write lately (disk full, I/O error, read-only file).
 * Reads still work then, so a `select 1` would call the process ready while every write fails:
 * readiness fails instead for a while after each refusal (a load balancer sends the traffic
 * elsewhere), and passes again once that while has gone by without one. Nothing to reset by hand:
 * when space is back the next write succeeds, and no new refusal keeps readiness failing.
 */
export class StorageHealth {
  /** How long readiness fails after a refusal: a few retry-afters. */
  static readonly HOLD_MS = 3 * DATABASE_RETRY_AFTER_SECONDS * 1000;
  #lastRefusalAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  /** Notes `error` if it is storage refusing a write; anything else is ignored. */
  noteFailure(error: unknown): void {
    if (holdsStorageFault(error)) this.#lastRefusalAt = this.now();
  }

  /** Whether a write was refused within the last HOLD_MS. */
  get refusingWrites(): boolean {
    return this.now() - this.#lastRefusalAt < StorageHealth.HOLD_MS;
  }
}
