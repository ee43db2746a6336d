import type { Clock } from '../../context.js';
import type { Executor } from '../database.js';

/**
 * Per kind, when its oldest due message (PENDING, `next_attempt_at` reached, leased or not) became
 * due; undefined when none is due. One statement of one index seek per kind (`state, kind,
 * next_attempt_at`), whatever the backlog.
 */
export async function oldestDueAt(
  db: Executor,
  kinds: readonly string[],
  now: string,
): Promise<Map<string, string | undefined>> {
  if (kinds.length === 0) return new Map();
  const row = await db
    .selectNoFrom((eb) =>
      kinds.map((kind, i) =>
        eb
          .selectFrom('outbox_message')
          .select('next_attempt_at')
          .where('state', '=', 'PENDING')
          .where('kind', '=', kind)
          .where('next_attempt_at', '<=', now)
          .orderBy('next_attempt_at')
          .limit(1)
          .as(`k${i}`),
      ),
    )
    .executeTakeFirstOrThrow();
  const due = row as Record<string, string | null>;
  return new Map(kinds.map((kind, i) => [kind, due[`k${i}`] ?? undefined]));
}

/** Seconds the oldest due message of each kind has waited; 0 for a kind with none due. */
export type DeliveryLagReport = ReadonlyMap<string, number>;

/** How long a read lag is answered again before the database is asked anew (scrapes and probes share it). */
export const DELIVERY_LAG_MAX_AGE_MS = 5000;

/**
 * The outbox's delivery lag, as /metrics and /ready show it: how long the oldest due message of
 * each kind has waited since it became due (its creation, or its retry's time after a failure).
 * Read at most once per DELIVERY_LAG_MAX_AGE_MS (concurrent callers share one read), so scrapes and
 * probes never hammer the database; a message delivered meanwhile leaves the answer up to that stale.
 */
export class DeliveryLag {
  #cached: { at: number; report: DeliveryLagReport } | undefined;
  #reading: Promise<DeliveryLagReport> | undefined;

  constructor(
    private readonly db: Executor,
    readonly kinds: readonly string[],
    private readonly clock: Clock,
    private readonly maxAgeMs = DELIVERY_LAG_MAX_AGE_MS,
  ) {}

  /** The lag per kind, from a read at most `maxAgeMs` old; rejects when the database cannot answer. */
  read(): Promise<DeliveryLagReport> {
    const now = this.clock();
    if (this.#cached && now.getTime() - this.#cached.at < this.maxAgeMs) return Promise.resolve(this.#cached.report);
    return (this.#reading ??= this.#readNow(now).finally(() => (this.#reading = undefined)));
  }

  async #readNow(now: Date): Promise<DeliveryLagReport> {
    const due = await oldestDueAt(this.db, this.kinds, now.toISOString());
    const report = new Map(
      [...due].map(([kind, at]) => [kind, at === undefined ? 0 : Math.max(0, (now.getTime() - Date.parse(at)) / 1000)]),
    );
    this.#cached = { at: now.getTime(), report };
    return report;
  }
}
