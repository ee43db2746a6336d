import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context.js';
import { OAuthError } from './errors.js';
import { clearFailures, purgeClosedWindows, readFailures, recordFailure } from './token-repository.js';

const PURGE_INTERVAL_MS = 60_000;

/**
 * Failed-login counters per lower-cased username and per client address, kept in the database
 * so every process sharing it sees the same counts. Fixed windows: the first failure opens a
 * window of LOGIN_FAILURE_WINDOW_SECONDS; reaching a limit refuses the key until it closes.
 */
export class LoginThrottle {
  private purgedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly context: AppContext) {}

  private get settings() {
    return this.context.config.auth.bruteForce;
  }

  private keysFor(username: string, ip: string): { key: string; limit: number }[] {
    return [
      { key: `user:${username.toLowerCase()}`, limit: this.settings.userFailureLimit },
      { key: `ip:${ip}`, limit: this.settings.ipFailureLimit },
    ];
  }

  private windowStart(now: Date): string {
    return new Date(now.getTime() - this.settings.windowSeconds * 1000).toISOString();
  }

  /** Refuses (429 with Retry-After) while the username or the address is locked, even with the right password. */
  async assertAllowed(username: string, ip: string): Promise<void> {
    const keys = this.keysFor(username, ip);
    const now = this.context.clock();
    const counts = await readFailures(
      this.context.db,
      keys.map((k) => k.key),
    );
    let retryAfter = 0;
    for (const { key, limit } of keys) {
      const count = counts.get(key);
      if (!count || count.windowStartedAt <= this.windowStart(now) || count.failures < limit) continue;
      const closesAt = new Date(count.windowStartedAt).getTime() + this.settings.windowSeconds * 1000;
      retryAfter = Math.max(retryAfter, Math.ceil((closesAt - now.getTime()) / 1000));
    }
    if (retryAfter > 0) {
      throw new OAuthError(
        429,
        'temporarily_unavailable',
        'Too many failed sign-in attempts; try again later.',
        retryAfter,
      );
    }
  }

  /** Counts a failure for both keys, then waits a little longer the more failures there were. */
  async recordFailure(username: string, ip: string): Promise<void> {
    const now = this.context.clock();
    if (now.getTime() - this.purgedAt > PURGE_INTERVAL_MS) {
      this.purgedAt = now.getTime();
      await purgeClosedWindows(this.context.db, this.windowStart(now));
    }
    let worst = 0;
    for (const { key } of this.keysFor(username, ip)) {
      const count = await recordFailure(this.context.db, key, now.toISOString(), this.windowStart(now));
      worst = Math.max(worst, count.failures);
    }
    const { slowdownAfter, delayStepMs, maxDelayMs } = this.settings;
    const delay = Math.min(maxDelayMs, delayStepMs * Math.max(0, worst - slowdownAfter));
    if (delay > 0) await sleep(delay);
  }

  /** A successful sign-in clears the username's counter (the address keeps its count). */
  async recordSuccess(username: string): Promise<void> {
    await clearFailures(this.context.db, `user:${username.toLowerCase()}`);
  }
}
