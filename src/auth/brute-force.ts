import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context.js';
import { OAuthError } from './errors.js';
import { clearFailures, purgeClosedWindows, readFailures, recordFailure } from './token-repository.js';

const PURGE_INTERVAL_MS = 60_000;

/**
 * The counter key of a username: `user:` and the SHA-256 (hex) of its lower-cased form, so a
 * username that is a card number, or any other value typed into the wrong field, is never stored.
 */
export function userFailureKey(username: string): string {
  return `user:${createHash('sha256').update(username.toLowerCase()).digest('hex')}`;
}

/**
 * Failed-login counters per username (hashed: userFailureKey) and per client address, kept in the database
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
      { key: userFailureKey(username), limit: this.settings.userFailureLimit },
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
    await clearFailures(this.context.db, userFailureKey(username));
  }
}
