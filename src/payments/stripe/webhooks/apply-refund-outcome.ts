import { current, now } from '../../flow/flow.js';
import { advanceChange, changeMoney } from '../../../policy-changes/settlement.js';
import { moveChange } from '../../../policy-changes/repository.js';
import { refundingChangesOf } from '../../../policy-changes/repository-payments.js';
import { done, type ApplyDeps } from './apply-payments.js';
import type { Application } from './model.js';

/**
 * `charge.refunded`: a refund of this payment went through. A change still REFUNDING a line of it
 * (its process died before recording the answer) is taken on as recovery would: once left alone
 * for the grace, leased by compare and set, and refunded again with the same keys (replayed).
 */
export async function applyRefundOutcome(
  deps: ApplyDeps,
  paymentId: string,
  policyNumber: string | undefined,
): Promise<Application> {
  if (policyNumber === undefined) return done('nothing: no policy has this payment');
  const refunding = (await refundingChangesOf(deps.db, policyNumber)).find(
    (c) => c.state === 'REFUNDING' && (c.refunds ?? []).some((l) => l.paymentId === paymentId && l.refunded !== true),
  );
  if (!refunding) return done('nothing: no refund of this payment is waiting');
  const at = now(deps);
  const leftAlone = Date.parse(refunding.updatedAt) + deps.graceSeconds * 1000;
  if (leftAlone > Date.parse(at))
    return {
      result: 'later',
      outcome: `waiting: our own step is refunding policy change ${refunding.id}`,
      until: new Date(leftAlone + 1000).toISOString(),
    };
  const leased = await moveChange(deps.db, refunding, ['REFUNDING'], 'REFUNDING', {}, at, refunding.updatedAt);
  if (!leased) return done(`nothing: policy change ${refunding.id} moved meanwhile`);
  await advanceChange(deps, leased);
  const after = await current(changeMoney, deps.db, refunding.id);
  return done(`advanced policy change ${refunding.id}: REFUNDING → ${after.state}`);
}
