import { Type, type Static } from 'typebox';

/** The environment variables of the outbox's delivery worker (parsed with the rest in src/config/config.ts). */
export const OutboxEnvSchema = Type.Object({
  OUTBOX_INTERVAL_MS: Type.Integer({
    default: 1000,
    minimum: 10,
    maximum: 3_600_000,
    description:
      'Pause between delivery passes of the outbox worker in each server process; while a delivery is under way, how often idle lanes look for more.',
  }),
  OUTBOX_LEASE_SECONDS: Type.Integer({
    default: 60,
    minimum: 1,
    maximum: 3600,
    description: 'How long a process owns a message it is sending; after a crash another takes it over then.',
  }),
  OUTBOX_MAX_ATTEMPTS: Type.Integer({
    default: 10,
    minimum: 1,
    maximum: 100,
    description: 'Delivery attempts before a message is FAILED (`npm run cli -- documents failed`, `… retry <key>`).',
  }),
  OUTBOX_CONCURRENCY: Type.Integer({
    default: 16,
    minimum: 1,
    maximum: 64,
    description:
      'E-mails each server process delivers at once (event publishing has two lanes of its own, webhook deliveries theirs: WEBHOOK_CONCURRENCY).',
  }),
  OUTBOX_STOP_GRACE_MS: Type.Integer({
    default: 1000,
    minimum: 0,
    maximum: 60_000,
    description:
      'On shutdown, how long deliveries under way may finish; then webhook POSTs are aborted and their messages given back (due at once for another process or the restart), and the process stops waiting for any other delivery (its lease expires).',
  }),
  OUTBOX_CRASH_AFTER: Type.Optional(
    Type.String({
      pattern: '^send(:[a-z-]+)?$',
      description:
        'Test hook: SIGKILL the process right after a handler delivered a message (`send`; `send:<kind>`: of that kind only), before it is marked SENT. Refused in production.',
    }),
  ),
});

/** The first retry's delay (doubled per attempt up to an hour): 10 attempts span about 40 minutes. */
const BASE_BACKOFF_MS = 5000;

/** What the worker needs of the configuration (worker.ts `OutboxWorkerOptions` adds test-only knobs). */
export interface OutboxConfig {
  /** Pause between passes. */
  readonly intervalMs: number;
  /** How long a worker owns a message it is delivering; after that another worker may take it. */
  readonly leaseSeconds: number;
  /** Attempts before a message is FAILED (an operator may retry it). */
  readonly maxAttempts: number;
  /** The first retry's delay; doubled per attempt, capped at an hour, with jitter. */
  readonly baseBackoffMs: number;
  /** Messages in delivery at once per process. */
  readonly concurrency: number;
  /** On stop, how long deliveries under way may finish before they are aborted (and not waited for). */
  readonly stopGraceMs: number;
  /** Crash-test hook (never in production): kill the process after a delivery (of one kind: `send:<kind>`), before SENT is recorded. */
  readonly crashAfter?: CrashAfterSend;
}

export type CrashAfterSend = 'send' | `send:${string}`;

/** Settings refused together (production: no crash-test hook). */
export function outboxConfigProblems(env: Static<typeof OutboxEnvSchema>, production: boolean): string[] {
  return production && env.OUTBOX_CRASH_AFTER
    ? ['OUTBOX_CRASH_AFTER: the crash-test hook is refused when APP_ENV=production']
    : [];
}

export function outboxConfigFrom(env: Static<typeof OutboxEnvSchema>): OutboxConfig {
  return {
    intervalMs: env.OUTBOX_INTERVAL_MS,
    leaseSeconds: env.OUTBOX_LEASE_SECONDS,
    maxAttempts: env.OUTBOX_MAX_ATTEMPTS,
    baseBackoffMs: BASE_BACKOFF_MS,
    concurrency: env.OUTBOX_CONCURRENCY,
    stopGraceMs: env.OUTBOX_STOP_GRACE_MS,
    ...(env.OUTBOX_CRASH_AFTER ? { crashAfter: env.OUTBOX_CRASH_AFTER as CrashAfterSend } : {}),
  };
}
