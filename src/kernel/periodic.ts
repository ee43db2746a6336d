/** Work a process repeats in the background (the purchase sweep, the outbox worker's passes). */
export interface Periodic<T> {
  /** One pass now, or the one already running (never two at once); rejects when the pass does. */
  runOnce(): Promise<T>;
  /** No new pass starts on the timer; resolves once a running one has finished (failed or not). */
  stop(): Promise<void>;
}

export interface PeriodicOptions<T> {
  /** Pause between the end of one pass and the start of the next. */
  readonly intervalMs: number;
  readonly pass: () => Promise<T>;
  /** A pass the timer started failed (e.g. the database is away): logged, and the next one tries again. */
  readonly onError: (error: unknown) => void;
  /** False: no timer, passes only through `runOnce` (tests, operator commands). */
  readonly timer?: boolean;
}

/**
 * Runs `pass` every `intervalMs`, one pass at a time. The timer is unref'd: the loop never keeps a
 * process alive on its own; a failed pass is handed to `onError`, never thrown.
 */
export function startPeriodic<T>(options: PeriodicOptions<T>): Periodic<T> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;

  const runOnce = () => (running ??= options.pass().finally(() => (running = undefined)));

  const schedule = () => {
    if (stopped || options.timer === false) return;
    timer = setTimeout(() => {
      void runOnce().catch(options.onError).finally(schedule);
    }, options.intervalMs);
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
