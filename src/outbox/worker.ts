import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../context.js';
import type { Db, Tx } from '../db/database.js';
import { failureName } from '../db/refused-values.js';
import type { OutboxConfig } from './config.js';
import { failAbandoned, leaseNext, markFailed, markSent, type KindAttempts, type OutboxMessage } from './repository.js';

/** Delivers one message; throwing means "not delivered", retried with back-off. Use `message.key` as a stable id. */
export type OutboxHandler = (message: OutboxMessage) => Promise<void>;

/** A kind with its own retry schedule, or work to commit with its SENT mark. */
export interface OutboxKind {
  readonly deliver: OutboxHandler;
  /** Delays before attempts 2, 3, …: a message gets `length + 1` attempts. Absent: back-off and `maxAttempts`. */
  readonly retryDelaysMs?: readonly number[];
  /** Runs in the transaction that marks the message SENT (e.g. the event that reports it was sent). */
  readonly recordSent?: (tx: Tx, message: OutboxMessage) => Promise<void>;
}

export interface OutboxWorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log?: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  /** In [0, 1); the back-off's jitter (tests pin it). */
  readonly random?: () => number;
}

export interface OutboxWorkerOptions extends OutboxConfig {
  /** Messages delivered at most per pass (the next pass continues). */
  readonly batch?: number;
  /** False: no timer, passes only through `runOnce` (tests, operator commands). */
  readonly timer?: boolean;
}

export interface OutboxWorker {
  /** One pass now: delivers messages due until none is left (or `batch`); resolves to how many were delivered. */
  runOnce(): Promise<number>;
  /** No new pass starts; resolves once a running one has finished. */
  stop(): Promise<void>;
}

export const MAX_BACKOFF_MS = 3_600_000;
const DEFAULT_BATCH = 100;

/**
 * Delay before attempt `attempts + 1`: base·2^(attempts−1), capped, then "equal jitter" (half
 * fixed, half random) so workers that failed together do not retry together.
 */
export function backoffMs(attempts: number, baseBackoffMs: number, random: number): number {
  const exponential = Math.min(MAX_BACKOFF_MS, baseBackoffMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random);
}

/**
 * The outbox's delivery worker of a process: every `intervalMs` a pass leases due messages one at
 * a time (compare and set, so with several processes one delivers each, the others skip it), runs
 * the handler of its kind and marks it SENT, or due again after a back-off, or FAILED after
 * `maxAttempts`. At least once: a crash after a handler delivered and before SENT was recorded
 * delivers again once the lease expires. Kinds without a handler here are left to other processes.
 */
export function startOutboxWorker(
  deps: OutboxWorkerDeps,
  handlers: Readonly<Record<string, OutboxHandler | OutboxKind>>,
  options: OutboxWorkerOptions,
): OutboxWorker {
  const owner = randomUUID();
  const byKind = new Map(
    Object.entries(handlers).map(([kind, h]) => [kind, typeof h === 'function' ? { deliver: h } : h] as const),
  );
  const attemptsOf = (kind: OutboxKind) => (kind.retryDelaysMs ? kind.retryDelaysMs.length + 1 : options.maxAttempts);
  const kinds: KindAttempts[] = [...byKind].map(([kind, k]) => ({ kind, maxAttempts: attemptsOf(k) }));
  const random = deps.random ?? Math.random;
  /** When attempt `attempts + 1` may start, or undefined when the message has had its last. */
  const retryAt = (kind: OutboxKind, attempts: number, at: Date): string | undefined => {
    if (attempts >= attemptsOf(kind)) return undefined;
    const delay = kind.retryDelaysMs
      ? (kind.retryDelaysMs[attempts - 1] as number)
      : backoffMs(attempts, options.baseBackoffMs, random());
    return new Date(at.getTime() + delay).toISOString();
  };
  const sent = async (kind: OutboxKind, message: OutboxMessage): Promise<boolean> => {
    const at = deps.clock().toISOString();
    const { recordSent } = kind;
    if (!recordSent) return markSent(deps.db, message.id, owner, at);
    return deps.db.transaction().execute(async (tx) => {
      const marked = await markSent(tx, message.id, owner, at);
      if (marked) await recordSent(tx, message);
      return marked;
    });
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const deliver = async (message: OutboxMessage): Promise<boolean> => {
    // Leased only among the kinds handled here.
    const kind = byKind.get(message.kind) as OutboxKind;
    try {
      await kind.deliver(message);
    } catch (error) {
      const at = deps.clock();
      const error_ = failureName(error).slice(0, 200);
      // A refusal that will never pass (e.g. an SMTP 5xx: MailSendFailed.permanent) fails at once.
      const permanent = (error as { permanent?: unknown }).permanent === true;
      const next = permanent ? undefined : retryAt(kind, message.attempts, at);
      await markFailed(deps.db, { id: message.id, owner, at: at.toISOString(), error: error_, retryAt: next });
      const fields = { outboxKey: message.key, kind: message.kind, attempts: message.attempts, reason: error_ };
      if (next === undefined) deps.log?.error(fields, 'outbox message failed after its last attempt');
      else deps.log?.warn({ ...fields, retryAt: next }, 'outbox message not delivered; retrying later');
      return false;
    }
    // SIGKILL, as a machine dying between the receiver's acceptance and SENT (test hook, see config).
    if (options.crashAfter === 'send' || options.crashAfter === `send:${message.kind}`)
      process.kill(process.pid, 'SIGKILL');
    if (await sent(kind, message)) return true;
    // Delivered after its lease ran out: another worker took it over and delivers it again.
    deps.log?.warn({ outboxKey: message.key, kind: message.kind }, 'outbox message delivered after its lease expired');
    return false;
  };

  const pass = async (): Promise<number> => {
    let delivered = 0;
    let budget = options.batch ?? DEFAULT_BATCH;
    await failAbandoned(deps.db, deps.clock().toISOString(), kinds);
    // Each lane leases and delivers one message at a time until none is due or the batch is spent.
    const lane = async () => {
      while (budget > 0 && !stopped) {
        budget--;
        const now = deps.clock();
        const message = await leaseNext(deps.db, {
          owner,
          now: now.toISOString(),
          until: new Date(now.getTime() + options.leaseSeconds * 1000).toISOString(),
          kinds,
        });
        if (!message) return;
        if (await deliver(message)) delivered++;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, lane));
    return delivered;
  };

  const runOnce = () => (running ??= pass().finally(() => (running = undefined)));

  const schedule = () => {
    if (stopped || options.timer === false) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => {
          // The pass could not run (e.g. the database is away): the next one tries again.
          deps.log?.warn({ err: error, reason: failureName(error) }, 'outbox pass could not run');
        })
        .finally(schedule);
    }, options.intervalMs);
    // The worker never keeps a process alive on its own.
    timer.unref();
  };
  schedule();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
