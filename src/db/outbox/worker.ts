import type { BackgroundLog } from '../../logging/background-log.js';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context.js';
import type { Db } from '../database.js';
import { failureName } from '../refused-values.js';
import type { OutboxConfig } from '../../config/outbox.js';
import { startPeriodic } from '../../kernel/periodic.js';
import { backoffMs, type CommittedKind, type OutboxHandler, type OutboxKind, type SendingKind } from './kinds.js';
import type { OutboxMessage } from './repository.js';
import {
  failAbandoned,
  leaseDue,
  markFailed,
  markSent as markSentIn,
  releaseLeases,
  type KindAttempts,
} from './repository-lease.js';
import { groupedSentMarks } from './sent-marks.js';
import { boundedStop } from './stop-bound.js';

export interface OutboxWorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly log?: BackgroundLog;
  readonly random?: () => number; // in [0, 1): the back-off's jitter (tests pin it)
}

export interface OutboxWorkerOptions extends OutboxConfig {
  /**
   * At most this many messages of one share (`NewOutboxMessage.share`, e.g. a partner's) leased at
   * once by all workers together, and shares leased in turn: a share whose receivers are slow
   * holds this many lanes at most. Absent: oldest due first, whatever their share.
   */
  readonly inFlightPerShare?: number;
  /** Messages delivered at most per pass (the next pass continues). */
  readonly batch?: number;
  readonly timer?: boolean; // false: no timer, passes only through `runOnce` (tests, operator commands)
}

export interface OutboxWorker {
  /** One pass now: delivers messages due until none is left (or `batch`); resolves to how many were delivered. */
  runOnce(): Promise<number>;
  /** No lease nor delivery starts; resolves when the pass has ended, within `stopGraceMs` + ABORT_SETTLE_MS (stop-bound.ts). */
  stop(): Promise<void>;
}

/** Messages per pass unless `batch` says: per lane, so more lanes are not held up by passes' ends and pauses. */
const BATCH_PER_LANE = 64;
const MIN_BATCH = 100;
/** Per lane per lease statement: a lane that finds the queue empty leases for the others too. */
const LEASE_PER_LANE = 4;

/**
 * The outbox's delivery worker of a process: every `intervalMs` a pass leases due messages (compare
 * and set, four per lane per statement, so with several processes one delivers each and the
 * others skip it) and its lanes deliver them one at a time (a slow receiver holds up one lane),
 * marking each SENT (grouped with others' marks), or due again after a back-off, or FAILED after
 * `maxAttempts`. A sending kind's `prepare` reads for its messages of a lease at once; messages of a
 * committed kind leased together are committed in one transaction. At least once: a crash after a
 * handler delivered and before SENT was recorded delivers again once the lease expires; a stop
 * gives back the leases of messages not started, and of deliveries it aborted after `stopGraceMs`
 * (a sending kind's `signal`). Kinds without a handler here are left to other processes.
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
  const lanes = Math.max(1, options.concurrency);
  const random = deps.random ?? Math.random;
  const markSent = groupedSentMarks(deps.db, owner, deps.clock);
  let stopped = false;
  const interrupt = new AbortController();
  /** When attempt `attempts + 1` may start, or undefined when the message has had its last. */
  const retryAt = (kind: OutboxKind, attempts: number, at: Date): string | undefined => {
    if (attempts >= attemptsOf(kind)) return undefined;
    const delay = kind.retryDelaysMs
      ? (kind.retryDelaysMs[attempts - 1] as number)
      : backoffMs(attempts, options.baseBackoffMs, random());
    return new Date(at.getTime() + delay).toISOString();
  };
  // SIGKILL, as a machine dying between the receiver's acceptance and SENT (test hook, see config).
  const crashHook = (kind: string) => {
    if (options.crashAfter === 'send' || options.crashAfter === `send:${kind}`) process.kill(process.pid, 'SIGKILL');
  };
  const leaseLost = (message: OutboxMessage) =>
    // Delivered after its lease ran out: another worker took it over and delivers it again.
    deps.log?.warn({ outboxKey: message.key, kind: message.kind }, 'outbox message delivered after its lease expired');

  const failed = async (kind: OutboxKind, message: OutboxMessage, error: unknown): Promise<void> => {
    const at = deps.clock();
    const error_ = failureName(error).slice(0, 200);
    // A refusal that will never pass (e.g. an SMTP 5xx: MailSendFailed.permanent) fails at once.
    const permanent = (error as { permanent?: unknown }).permanent === true;
    const next = permanent ? undefined : retryAt(kind, message.attempts, at);
    await markFailed(deps.db, { id: message.id, owner, at: at.toISOString(), error: error_, retryAt: next });
    const fields = { outboxKey: message.key, kind: message.kind, attempts: message.attempts, reason: error_ };
    if (next === undefined) deps.log?.error(fields, 'outbox message failed after its last attempt');
    else deps.log?.warn({ ...fields, retryAt: next }, 'outbox message not delivered; retrying later');
  };

  /** Starts each sending kind's `prepare` of its messages in a lease; answers where each message's answer will be. */
  const prepareLease = (leased: readonly OutboxMessage[]) => {
    const prepared = new Map<string, Promise<unknown>>();
    for (const name of new Set(leased.map((m) => m.kind))) {
      const kind = byKind.get(name);
      if (!kind || !('deliver' in kind) || !kind.prepare) continue;
      const answer = kind.prepare(leased.filter((m) => m.kind === name)).catch((error: unknown) => {
        deps.log?.warn({ err: error, kind: name, reason: failureName(error) }, 'outbox batch not prepared');
        return undefined;
      });
      prepared.set(name, answer);
    }
    return (message: OutboxMessage) => prepared.get(message.kind);
  };

  /** Delivers one message of a sending kind; 1 when it was marked SENT. */
  const send = async (kind: SendingKind, message: OutboxMessage, prepared?: Promise<unknown>): Promise<number> => {
    try {
      await kind.deliver(message, await prepared, interrupt.signal);
    } catch (error) {
      // Cut short by a stop: not the receiver's failure; given back, due at once, the attempt not spent.
      if (interrupt.signal.aborted) await releaseLeases(deps.db, [message.id], owner, deps.clock().toISOString());
      else await failed(kind, message, error);
      return 0;
    }
    crashHook(message.kind);
    if (await markSent({ message, recordSent: kind.recordSent })) return 1;
    leaseLost(message);
    return 0;
  };

  /** Commits messages of a committed kind with their SENT marks; how many were marked. */
  const commit = async (kind: CommittedKind, messages: readonly OutboxMessage[]): Promise<number> => {
    try {
      const marked = await deps.db.transaction().execute(async (tx) => {
        await kind.commit(tx, messages);
        crashHook(messages[0]?.kind ?? '');
        return markSentIn(
          tx,
          messages.map((m) => m.id),
          owner,
          deps.clock().toISOString(),
        );
      });
      for (const message of messages) if (!marked.has(message.id)) leaseLost(message);
      return marked.size;
    } catch (error) {
      if (messages.length === 1) {
        await failed(kind, messages[0] as OutboxMessage, error);
        return 0;
      }
      // One message's defect must not fail the others: each alone, as one message is.
      let marked = 0;
      for (const message of messages) marked += await commit(kind, [message]);
      return marked;
    }
  };

  /** Lanes waiting for the next look at the queue wait together; a stop ends the wait. */
  let idle: { promise: Promise<void>; end: () => void } | undefined;
  const nextLook = (): Promise<void> => {
    if (!idle) {
      let end: () => void = () => undefined;
      const promise = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.intervalMs).unref();
        end = () => {
          clearTimeout(timer);
          resolve();
        };
      }).finally(() => (idle = undefined));
      idle = { promise, end };
    }
    return idle.promise;
  };

  const pass = async (): Promise<number> => {
    let delivered = 0;
    let budget = options.batch ?? Math.max(MIN_BATCH, lanes * BATCH_PER_LANE);
    let drained = false;
    /** Lanes delivering now: while any is, an idle lane looks again every `intervalMs`. */
    let delivering = 0;
    /** Deliveries ended in this pass: a lease that ran while one ended may not have seen it end. */
    let ended = 0;
    /** Leased by a lane for the others, not yet started; each with the end of its lease. */
    const queue: { message: OutboxMessage; until: string; prepared: Promise<unknown> | undefined }[] = [];
    let leasing: Promise<unknown> | undefined;
    await failAbandoned(deps.db, deps.clock().toISOString(), kinds);
    /** The queued messages of a committed kind, to commit with one of them. */
    const queuedOf = (kind: string) => {
      const same = queue.filter((q) => q.message.kind === kind);
      for (const q of same) queue.splice(queue.indexOf(q), 1);
      return same.map((q) => q.message);
    };
    // Each lane takes the next leased message; when none is left, it leases LEASE_PER_LANE per lane
    // in one statement (the others wait for it), until the batch is spent or a lease finds none
    // while no lane is delivering. A lane that finds none while others deliver (a slow receiver)
    // looks again every `intervalMs`, so what becomes due meanwhile does not wait for the slow one.
    const lane = async () => {
      for (;;) {
        // Stopping: no new delivery starts (the queue's leases are given back below).
        if (stopped) return;
        const queued = queue.shift();
        // Its lease ran out while it waited for a lane: another worker may have it now.
        if (queued && queued.until <= deps.clock().toISOString()) continue;
        let message = queued?.message;
        let prepared = queued?.prepared;
        if (!message) {
          if (drained || budget <= 0) return;
          if (leasing) {
            await leasing.catch(() => undefined);
            continue;
          }
          const now = deps.clock();
          const until = new Date(now.getTime() + options.leaseSeconds * 1000).toISOString();
          const limit = Math.min(budget, lanes * LEASE_PER_LANE);
          const endedBefore = ended;
          const leasedNow = leaseDue(deps.db, {
            owner,
            now: now.toISOString(),
            until,
            kinds,
            limit,
            ...(options.inFlightPerShare === undefined ? {} : { perShare: options.inFlightPerShare }),
          });
          leasing = leasedNow;
          let leased: OutboxMessage[];
          try {
            // Resumes before the lanes waiting for it (reactions run in order): they find the queue filled.
            leased = await leasedNow;
          } finally {
            leasing = undefined;
          }
          const [first, ...rest] = leased;
          budget -= leased.length;
          if (!first) {
            // Only an empty lease with no delivery under way ends the pass: a short one may mean
            // another worker holds the rest (skip locked), the pass's own commits may have queued
            // more (fan-out) since, and a delivery under way may free its share's place.
            // A delivery that ended while the lease ran freed its share's place after the
            // statement's snapshot: look again at once rather than end the pass.
            if (delivering === 0 && ended === endedBefore) {
              drained = true;
              return;
            }
            if (delivering > 0) await nextLook();
            continue;
          }
          const preparedOf = prepareLease(leased);
          for (const next of rest) queue.push({ message: next, until, prepared: preparedOf(next) });
          message = first;
          prepared = preparedOf(first);
        }
        const kind = byKind.get(message.kind) as OutboxKind;
        delivering++;
        try {
          // Awaited first: `delivered += await …` would add to the count read before the wait.
          const marked =
            'commit' in kind
              ? await commit(kind, [message, ...queuedOf(message.kind)])
              : await send(kind, message, prepared);
          delivered += marked;
        } finally {
          delivering--;
          ended++;
        }
      }
    };
    const lanesEnded = await Promise.allSettled(Array.from({ length: lanes }, lane));
    const unstarted = queue.splice(0).map((q) => q.message.id);
    await releaseLeases(deps.db, unstarted, owner, deps.clock().toISOString());
    const failure = lanesEnded.find((e) => e.status === 'rejected');
    if (failure) throw failure.reason;
    return delivered;
  };

  const loop = startPeriodic({
    intervalMs: options.intervalMs,
    pass,
    // The pass could not run (e.g. the database is away): the next one tries again.
    onError: (error: unknown) =>
      deps.log?.warn({ err: error, reason: failureName(error) }, 'outbox pass could not run'),
    timer: options.timer !== false,
  });
  let stopping: Promise<void> | undefined;
  const stop = async () => {
    stopped = true;
    idle?.end();
    if (!(await boundedStop(loop.stop(), options.stopGraceMs, () => interrupt.abort())))
      deps.log?.warn('outbox worker stopped with deliveries under way: their leases will expire');
  };
  return { runOnce: () => loop.runOnce(), stop: () => (stopping ??= stop()) };
}
