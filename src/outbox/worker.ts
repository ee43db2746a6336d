import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import { failureName } from '../db/refused-values.js';
import type { OutboxConfig } from './config.js';
import { failAbandoned, leaseNext, markFailed, markSent, type OutboxMessage } from './repository.js';

/** Delivers one message; throwing means "not delivered", retried with back-off. Use `message.key` as a stable id. */
export type OutboxHandler = (message: OutboxMessage) => Promise<void>;

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
  handlers: Readonly<Record<string, OutboxHandler>>,
  options: OutboxWorkerOptions,
): OutboxWorker {
  const owner = randomUUID();
  const kinds = Object.keys(handlers);
  const random = deps.random ?? Math.random;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const deliver = async (message: OutboxMessage): Promise<boolean> => {
    try {
      // Leased only among the kinds handled here.
      await (handlers[message.kind] as OutboxHandler)(message);
    } catch (error) {
      const at = deps.clock();
      const error_ = failureName(error).slice(0, 200);
      // A refusal that will never pass (e.g. an SMTP 5xx: MailSendFailed.permanent) fails at once.
      const permanent = (error as { permanent?: unknown }).permanent === true;
      const exhausted = permanent || message.attempts >= options.maxAttempts;
      const retryAt = exhausted
        ? undefined
        : new Date(at.getTime() + backoffMs(message.attempts, options.baseBackoffMs, random())).toISOString();
      await markFailed(deps.db, { id: message.id, owner, at: at.toISOString(), error: error_, retryAt });
      const fields = { outboxKey: message.key, kind: message.kind, attempts: message.attempts, reason: error_ };
      if (exhausted) deps.log?.error(fields, 'outbox message failed after its last attempt');
      else deps.log?.warn({ ...fields, retryAt }, 'outbox message not delivered; retrying later');
      return false;
    }
    // SIGKILL, as a machine dying between the SMTP server's acceptance and SENT (test hook, see config).
    if (options.crashAfter === 'send') process.kill(process.pid, 'SIGKILL');
    if (await markSent(deps.db, message.id, owner, deps.clock().toISOString())) return true;
    // Delivered after its lease ran out: another worker took it over and delivers it again.
    deps.log?.warn({ outboxKey: message.key, kind: message.kind }, 'outbox message delivered after its lease expired');
    return false;
  };

  const pass = async (): Promise<number> => {
    let delivered = 0;
    const limit = options.batch ?? DEFAULT_BATCH;
    await failAbandoned(deps.db, deps.clock().toISOString(), options.maxAttempts);
    for (let seen = 0; seen < limit && !stopped; seen++) {
      const now = deps.clock();
      const message = await leaseNext(deps.db, {
        owner,
        now: now.toISOString(),
        until: new Date(now.getTime() + options.leaseSeconds * 1000).toISOString(),
        kinds,
        maxAttempts: options.maxAttempts,
      });
      if (!message) break;
      if (await deliver(message)) delivered++;
    }
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
