import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context.js';
import { OAuthError } from './errors.js';
import {
  clearFailuresUpTo,
  purgeClosedWindows,
  readFailures,
  releaseAttempt,
  reserveAttempt,
  type FailureCount,
} from './token-repository.js';

const PURGE_INTERVAL_MS = 60_000;

/** The attempts one sign-in took from each budget (username and address) before its password was checked. */
export interface SignInAttempt {
  readonly taken: readonly ({ key: string } & FailureCount)[];
}

/**
 * The counter key of a username: `user:` and the SHA-256 (hex) of its lower-cased form, so a
 * username that is a card number, or any other value typed into the wrong field, is never stored.
 */
export function userFailureKey(username: string): string {
  return `user:${createHash('sha256').update(username.toLowerCase()).digest('hex')}`;
}

/**
 * Failed-login counters per username (hashed: userFailureKey) and per client address, kept in the
 * database so every process sharing it sees the same counts. Fixed windows: the first attempt opens
 * a window of LOGIN_FAILURE_WINDOW_SECONDS; a key at its limit is refused until the window closes.
 *
 * Count before you verify: each sign-in takes an attempt atomically BEFORE the password hash is
 * checked, so N parallel guesses can never all be verified (at most `limit` per window are); a
 * failure keeps its attempt, a success gives it back (see `succeeded`).
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

  /**
   * Takes one attempt for the username and one for the address, or refuses (429 with Retry-After)
   * while either is at its limit, even when the password would be right.
   */
  async reserve(username: string, ip: string): Promise<SignInAttempt> {
    const now = this.context.clock();
    const windowStart = this.windowStart(now);
    if (now.getTime() - this.purgedAt > PURGE_INTERVAL_MS) {
      this.purgedAt = now.getTime();
      await purgeClosedWindows(this.context.db, windowStart);
    }
    const taken: SignInAttempt['taken'][number][] = [];
    for (const { key, limit } of this.keysFor(username, ip)) {
      const count = await reserveAttempt(this.context.db, key, limit, now.toISOString(), windowStart);
      if (count) {
        taken.push({ key, ...count });
        continue;
      }
      // A locked key: hand back what this request took from the other budget, then refuse.
      for (const held of taken) await releaseAttempt(this.context.db, held.key, held.windowStartedAt);
      throw await this.locked(key, now);
    }
    return { taken };
  }

  private async locked(key: string, now: Date): Promise<OAuthError> {
    const count = (await readFailures(this.context.db, [key])).get(key);
    const closesAt = count ? new Date(count.windowStartedAt).getTime() + this.settings.windowSeconds * 1000 : 0;
    const retryAfter = Math.max(1, Math.ceil((closesAt - now.getTime()) / 1000));
    return new OAuthError(
      429,
      'temporarily_unavailable',
      'Too many failed sign-in attempts; try again later.',
      retryAfter,
    );
  }

  /** The attempt failed: it stays counted; wait a little longer the more attempts there were. */
  async failed(attempt: SignInAttempt): Promise<void> {
    const worst = Math.max(0, ...attempt.taken.map((t) => t.failures));
    const { slowdownAfter, delayStepMs, maxDelayMs } = this.settings;
    const delay = Math.min(maxDelayMs, delayStepMs * Math.max(0, worst - slowdownAfter));
    if (delay > 0) await sleep(delay);
  }

  /**
   * The attempt succeeded. The username's counter is cleared only if no attempt was taken after
   * this one (a guess racing the right password stays counted); otherwise, like the address's
   * counter, it just gets this attempt back.
   */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    for (const { key, windowStartedAt, failures } of attempt.taken) {
      const cleared =
        key.startsWith('user:') && (await clearFailuresUpTo(this.context.db, key, windowStartedAt, failures));
      if (!cleared) await releaseAttempt(this.context.db, key, windowStartedAt);
    }
  }
}
