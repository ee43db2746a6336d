import { failureName } from '../db/refused-values.js';
import { startPeriodic, type Periodic } from '../kernel/periodic.js';
import type { FlowDeps } from './flow.js';
import { recoverPurchases, type RecoveryReport } from './recovery.js';

/**
 * The periodic recovery of a server process: every `intervalSeconds` it finishes or undoes
 * purchases untouched for `graceSeconds` (their process died or lost its connection), so a
 * retry waits at most about grace + interval instead of until the next start. Every process
 * sweeps; recovery leases each purchase by compare-and-set, so one of them settles it and the
 * others skip it. Started with the server, stopped (awaiting a running sweep) before it closes.
 */
export type RecoverySweep = Periodic<RecoveryReport | undefined>;

export function startRecoverySweep(
  deps: FlowDeps,
  options: {
    readonly intervalSeconds: number;
    readonly graceSeconds: number;
    /** Other recoveries of the same kind run after the purchases' in each sweep (policy changes). */
    readonly alsoRecover?: () => Promise<unknown>;
  },
): RecoverySweep {
  return startPeriodic({
    intervalMs: options.intervalSeconds * 1000,
    pass: () =>
      recoverPurchases(deps, { graceSeconds: options.graceSeconds })
        .then(async (report) => {
          await options.alsoRecover?.();
          return report;
        })
        .catch((error: unknown) => {
          // The sweep could not run at all (e.g. the database is away): the next one tries again.
          deps.log?.warn({ err: error, reason: failureName(error) }, 'purchase recovery sweep could not run');
          return undefined;
        }),
    // Never called: a sweep that could not run is logged above and answers undefined (so does `runOnce`).
    onError: () => undefined,
  });
}
