import { createHash } from 'node:crypto';
import { randomToken } from '../../kernel/crypto/random-token.js';
import type { Clock } from '../../context.js';
import type { Db } from '../../db/database.js';
import { IdempotencyKeyMalformed, IdempotencyKeyReused, IdempotencyRequestInFlight } from './errors.js';
import { deleteExpired, findKey, insertClaim, releaseClaim, storeResponse, takeOver } from './repository.js';

/**
 * Idempotency-Key handling with Stripe's semantics, independent of the HTTP framework
 * (docs/api-contract.md, "Idempotency"). A key belongs to one scope (the partner). The first
 * request claims it atomically (unique constraint), so across any number of processes exactly
 * one runs; the others see its stored response, a 409 while it runs, or a 422 if their request
 * differs. A commit of the request may name on the key the record it started (`subject`, see
 * repository.ts `bindKeyStep`): from then on the key is the operation's, and a retry after any
 * failure that kept no answer runs again with the subject in hand, to answer from it.
 */
export interface IdempotencyOptions {
  readonly db: Db;
  readonly clock: Clock;
  /** How long a key and its stored response are kept; after that the key may be used afresh. */
  readonly retentionHours: number;
  /** A claim older than this is taken to be abandoned (its process died); a retry may take it over. */
  readonly lockTimeoutSeconds?: number;
  /** `Retry-After` of the 409 answered while the first request runs. */
  readonly retryAfterSeconds?: number;
}

export interface IdempotentRequest {
  readonly scope: string;
  readonly key: string;
  readonly method: string;
  /** Path and query of the request. */
  readonly path: string;
  readonly body: unknown;
}

export interface StoredResponse {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

/** Proof of a claim: only its holder completes or releases the key. */
export interface ClaimToken {
  readonly id: number;
  readonly lockToken: string;
}

/** A key a request holds: its record's id, and the record (`subject`) a commit of a request with it named, if any. */
export interface HeldKey {
  readonly id: number;
  readonly subject?: string;
}

/** A claim still in flight when a retry arrives: its record, as far as the route's judge needs it. */
export interface HeldClaim extends HeldKey {
  readonly lockedAt: string;
}

/**
 * The route's judgement of a claim in flight (its holder may have died): `takeOver` when the work
 * it stands for has its answer already (or was abandoned and the retry may finish it), else the
 * true number of seconds until a retry can get an answer.
 */
export type InFlightVerdict =
  { readonly takeOver: true } | { readonly takeOver: false; readonly retryAfterSeconds: number };
export type InFlightJudge = (claim: HeldClaim) => Promise<InFlightVerdict | undefined>;

export type Claim =
  | { readonly kind: 'claimed'; readonly token: ClaimToken; readonly subject?: string }
  | { readonly kind: 'replay'; readonly response: StoredResponse };

const PRINTABLE_ASCII = /^[\x20-\x7E]{1,255}$/;

/** The header's key, `undefined` when absent; throws IdempotencyKeyMalformed when not 1–255 printable ASCII. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !PRINTABLE_ASCII.test(header)) throw new IdempotencyKeyMalformed();
  return header;
}

/** JSON with object keys sorted at every level, so key order does not change a fingerprint. */
export function canonicalJson(value: unknown): string {
  // No body (a GET) and a JSON null are different requests.
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

export function fingerprintOf(request: Pick<IdempotentRequest, 'method' | 'path' | 'body'>): string {
  return createHash('sha256')
    .update(`${request.method.toUpperCase()}\n${request.path}\n${canonicalJson(request.body)}`)
    .digest('hex');
}

/** Statuses that mean the request's shape, its caller or a clash kept it from running: never stored. */
const NOT_STORED_4XX = new Set([400, 401, 403, 405, 408, 409, 411, 413, 414, 415, 429, 431]);

/**
 * Whether a response is kept for replay: every 2xx and 3xx, and 4xx answers the endpoint reached
 * by running its rules (a 404 for an unknown quote, a 422 business refusal). Never 5xx: the
 * request may be retried with the same key.
 */
export function isStoredStatus(status: number): boolean {
  if (status >= 500) return false;
  if (status >= 400) return !NOT_STORED_4XX.has(status);
  return true;
}

export class IdempotencyService {
  private readonly lockTimeoutMs: number;
  private readonly retryAfterSeconds: number;

  constructor(private readonly options: IdempotencyOptions) {
    this.lockTimeoutMs = (options.lockTimeoutSeconds ?? 120) * 1000;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }

  /** Claims the key for this request, or answers what a previous request with it decided. */
  async claim(request: IdempotentRequest, judge?: InFlightJudge): Promise<Claim> {
    const { db } = this.options;
    const fingerprint = fingerprintOf(request);
    // A competitor can take over between our steps; a few rounds always settle it.
    for (let round = 0; round < 5; round += 1) {
      const fresh = this.freshClaim(fingerprint);
      const id = await insertClaim(db, {
        scope: request.scope,
        idempotency_key: request.key,
        state: 'in_flight',
        ...fresh,
      });
      if (id !== undefined) return { kind: 'claimed', token: { id, lockToken: fresh.lock_token } };
      const row = await findKey(db, request.scope, request.key);
      if (!row) continue;
      const claimed = (subject: string | null): Claim => ({
        kind: 'claimed',
        token: { id: row.id, lockToken: fresh.lock_token },
        ...(subject === null ? {} : { subject }),
      });
      if (row.expires_at <= fresh.locked_at) {
        if (await takeOver(db, row.id, row.lock_token, { ...fresh, subject: null })) return claimed(null);
        continue;
      }
      // Released with no record of its own: free, as if never used.
      if (row.state === 'released' && row.subject === null) {
        if (await takeOver(db, row.id, row.lock_token, fresh)) return claimed(null);
        continue;
      }
      if (row.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
      if (row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
        return {
          kind: 'replay',
          response: { status: row.response_status, contentType: row.response_content_type, body: row.response_body },
        };
      }
      const kept = { created_at: row.created_at, expires_at: row.expires_at };
      // The request it started ended without an answer kept: the retry runs at once, with the record in hand.
      if (row.state === 'released') {
        if (await takeOver(db, row.id, row.lock_token, { ...fresh, ...kept })) return claimed(row.subject);
        continue;
      }
      const verdict = await judge?.({
        id: row.id,
        lockedAt: row.locked_at,
        ...(row.subject === null ? {} : { subject: row.subject }),
      });
      const abandoned =
        verdict?.takeOver === true || Date.parse(row.locked_at) + this.lockTimeoutMs <= Date.parse(fresh.locked_at);
      if (abandoned && (await takeOver(db, row.id, row.lock_token, { ...fresh, ...kept }))) return claimed(row.subject);
      if (!abandoned)
        throw new IdempotencyRequestInFlight(
          verdict?.takeOver === false ? Math.max(1, Math.ceil(verdict.retryAfterSeconds)) : this.retryAfterSeconds,
        );
    }
    throw new IdempotencyRequestInFlight(this.retryAfterSeconds);
  }

  /** Stores the response for replay, or releases the key when the response is not kept. */
  async complete(token: ClaimToken, response: StoredResponse): Promise<void> {
    if (isStoredStatus(response.status)) await storeResponse(this.options.db, token.id, token.lockToken, response);
    else await releaseClaim(this.options.db, token.id, token.lockToken, false);
  }

  /**
   * Releases the key without a kept response (the request failed before answering, or its answer is
   * not final): a retry runs at once. The record a commit named on the key stays named, unless
   * `unbind` (an answer that says to retry afresh).
   */
  async release(token: ClaimToken, options: { unbind?: boolean } = {}): Promise<void> {
    await releaseClaim(this.options.db, token.id, token.lockToken, options.unbind === true);
  }

  /** Deletes keys past their retention; returns how many. Expired keys are reusable even before this runs. */
  async purgeExpired(): Promise<number> {
    return deleteExpired(this.options.db, this.options.clock().toISOString());
  }

  private freshClaim(fingerprint: string) {
    const now = this.options.clock();
    return {
      fingerprint,
      lock_token: randomToken(16),
      locked_at: now.toISOString(),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.options.retentionHours * 3_600_000).toISOString(),
    };
  }
}
