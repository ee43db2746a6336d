import { failureName } from '../db/refused-values.js';
import { UNFINISHED_STATES, type ChangeState } from './model.js';
import { moveChange, unfinishedChanges } from './repository.js';
import { advanceChange, type ChangeFlowDeps } from './settlement.js';
import { emptyTally, settleLeased } from '../payments/flow/recovery.js';

/**
 * Finishes what a dead process left of a change confirmation (model.ts has the states): STARTED →
 * ask the gateway again with the same key (it replays) and go on; APPLIED → capture; REFUNDING →
 * refund each line not recorded as paid (replayed) and write the transaction, or past its retry
 * bound end it (refunds.ts); CHALLENGE_PENDING past its expiry →
 * back to PREVIEW. Changes touched within the grace period are left to their process; of several
 * recovering processes one leases each change (compare and set on its `updated_at`). One bad record
 * never stops the run. Run at start and by every server's periodic sweep (purchases/sweeper.ts).
 * Invariant: no charge or refund without its policy transaction, none twice.
 */
export interface ChangeRecoveryReport {
  readonly examined: Partial<Record<ChangeState, number>>;
  readonly outcomes: Partial<Record<ChangeState, number>>;
  readonly problems: readonly { readonly changeId: string; readonly state: ChangeState; readonly reason: string }[];
}

export async function recoverPolicyChanges(
  deps: ChangeFlowDeps,
  options: { readonly graceSeconds: number },
): Promise<ChangeRecoveryReport> {
  const before = new Date(deps.clock().getTime() - options.graceSeconds * 1000).toISOString();
  const tally = emptyTally<ChangeState>();
  const problems: { changeId: string; state: ChangeState; reason: string }[] = [];
  await settleLeased(deps, tally, await unfinishedChanges(deps.db, UNFINISHED_STATES, before), {
    lease: (change, at) => moveChange(deps.db, change, [change.state], change.state, {}, at, change.updatedAt),
    finish: (leased) => advanceChange(deps, leased),
    failed: (change, error) => {
      problems.push({ changeId: change.id, state: change.state, reason: failureName(error) });
      deps.log?.error(
        { err: error, changeId: change.id },
        'policy change recovery: could not settle a record; going on',
      );
    },
  });
  const { examined, outcomes } = tally;
  return { examined, outcomes, problems };
}
