import type { Tx } from '../database.js';
import type { OutboxMessage } from './repository.js';

/** What the worker (worker.ts) does with each kind of message: the kinds' contracts, the default back-off. */

/** Delivers one message; throwing means "not delivered", retried with back-off. Use `message.key` as a stable id. */
export type OutboxHandler = (message: OutboxMessage) => Promise<void>;

interface KindSchedule {
  /** Delays before attempts 2, 3, …: a message gets `length + 1` attempts. Absent: back-off and `maxAttempts`. */
  readonly retryDelaysMs?: readonly number[];
}

/**
 * A kind whose delivery calls out (an e-mail, a webhook): one message per lane, marks SENT grouped.
 * `prepare`, if any, reads what the kind's messages leased together need (their rows, in a few
 * statements for all) before the first of them is delivered; its answer goes to each `deliver`
 * (undefined when it threw: each delivery then reads its own).
 */
export interface SendingKind<Prepared = unknown> extends KindSchedule {
  prepare?(messages: readonly OutboxMessage[]): Promise<Prepared>;
  /**
   * `signal` aborts when the worker stops and the delivery outlived its grace: a delivery that
   * heeds it rejects soon after, and its message is given back undelivered (due at once elsewhere).
   */
  deliver(message: OutboxMessage, prepared?: Prepared, signal?: AbortSignal): Promise<void>;
  /** Runs in the transaction that marks the message SENT (e.g. the event that reports it was sent). */
  readonly recordSent?: (tx: Tx, message: OutboxMessage) => Promise<void>;
}

/**
 * A kind whose delivery is work in the database only (publishing an event): its messages leased
 * together are committed in ONE transaction with their SENT marks; a throw commits each alone.
 */
export interface CommittedKind extends KindSchedule {
  readonly commit: (tx: Tx, messages: readonly OutboxMessage[]) => Promise<void>;
}

export type OutboxKind = SendingKind | CommittedKind;

export const MAX_BACKOFF_MS = 3_600_000;

/**
 * Delay before attempt `attempts + 1`: base·2^(attempts−1), capped, then "equal jitter" (half
 * fixed, half random) so workers that failed together do not retry together.
 */
export function backoffMs(attempts: number, baseBackoffMs: number, random: number): number {
  const exponential = Math.min(MAX_BACKOFF_MS, baseBackoffMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random);
}
