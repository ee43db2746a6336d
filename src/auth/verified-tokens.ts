import { setBounded } from '../kernel/cache/bounded-map.js';
import type { AccessClaims } from './claims.js';

/** What a successful verification established about one token string. */
export interface VerifiedToken {
  readonly claims: AccessClaims;
  /** The key that signed it: a hit is honoured only while that key may still verify. */
  readonly kid: string;
  /** The token's `exp` claim, seconds since the epoch. */
  readonly expiresAt: number;
}

/** jose's rule: expired once exp <= now (whole seconds, no tolerance configured). */
export function unexpired(verified: VerifiedToken, nowMs: number): boolean {
  return verified.expiresAt > Math.floor(nowMs / 1000);
}

/** How many tokens a process remembers; ~1 KB each, so the bound keeps it near 10 MB. */
export const VERIFIED_TOKEN_CAPACITY = 10_000;

/**
 * Access tokens this process has already verified, until they expire. A partner sends the same
 * token on every call for up to an hour, and checking an ES256 signature costs ~100 µs of CPU,
 * several times the rest of a cached product read (docs/performance.md). Only the exact token
 * string hits, so a changed byte is verified afresh; expiry is checked on every hit, exactly as
 * jose checks it, and the caller re-checks the signing key and the user's standing.
 */
export class VerifiedTokenCache {
  readonly #entries = new Map<string, VerifiedToken>();

  constructor(private readonly capacity = VERIFIED_TOKEN_CAPACITY) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The verified token if it has not expired at `nowMs`; an expired one is forgotten. */
  get(token: string, nowMs: number): VerifiedToken | undefined {
    const hit = this.#entries.get(token);
    if (!hit) return undefined;
    if (!unexpired(hit, nowMs)) {
      this.#entries.delete(token);
      return undefined;
    }
    return hit;
  }

  set(token: string, verified: VerifiedToken): void {
    // Oldest first out: partners renew hourly, so the oldest entry is the likeliest to be dead.
    setBounded(this.#entries, token, verified, this.capacity);
  }
}
