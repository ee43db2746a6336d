import { now } from '../../flow/flow.js';
import { findPurchaseOfPayment } from '../../../purchases/repository.js';
import type { PolicyChange } from '../../../policy-changes/model.js';
import { moveChange } from '../../../policy-changes/repository.js';
import { findChangeOfPayment, refundingChangesOf } from '../../../policy-changes/repository-payments.js';
import { applyRefundOutcome } from './apply-refund-outcome.js';
import { done, type ApplyDeps } from './apply-payments.js';
import type { Application, ObjectFacts } from './model.js';

/**
 * Refund events. A refund Stripe accepted (our change recorded its line as paid) can still fail
 * later (`refund.failed`, `refund.updated` with status `failed` or `canceled`): the money did not
 * go back, so the change that booked it moves to ATTENTION (`declineReason` `REFUND_FAILED`, the
 * line no longer paid) where operators see it (`policy-changes attention`) and pay it by hand.
 * `charge.refunded` says a refund went through: a change still REFUNDING is taken on like recovery
 * would (its keys replay), once its own process has left it alone.
 */

/** Why an ATTENTION change is there when Stripe reported its refund failed after accepting it. */
export const REFUND_FAILED = 'REFUND_FAILED';

const FAILED_STATUSES: readonly string[] = ['failed', 'canceled'];

/** The policy a payment paid for: its purchase's, or its amendment's. */
async function policyOfPayment(deps: ApplyDeps, paymentId: string): Promise<string | undefined> {
  const purchase = await findPurchaseOfPayment(deps.db, paymentId);
  if (purchase?.policyNumber !== undefined) return purchase.policyNumber;
  return (await findChangeOfPayment(deps.db, paymentId))?.policyNumber;
}

const paidLineOf = (change: PolicyChange, paymentId: string, amountMinor: number) =>
  (change.refunds ?? []).find((l) => l.paymentId === paymentId && l.amountMinor === amountMinor && l.refunded === true);

export async function applyRefund(deps: ApplyDeps, type: string, object: ObjectFacts): Promise<Application> {
  if (object.kind === 'charge' && type === 'charge.refunded') {
    if (object.paymentId === undefined) return done('nothing: the charge names no payment');
    return applyRefundOutcome(deps, object.paymentId, await policyOfPayment(deps, object.paymentId));
  }
  if (object.kind !== 'refund') return done('nothing: not a refund');
  if (!FAILED_STATUSES.includes(object.status)) return done(`nothing: the refund is ${object.status || 'unknown'}`);
  if (object.paymentId === undefined) return done('nothing: the refund names no payment');
  const policyNumber = await policyOfPayment(deps, object.paymentId);
  if (policyNumber === undefined) return done('nothing: no policy has this payment');
  const changes = (await refundingChangesOf(deps.db, policyNumber)).filter(
    (c) => paidLineOf(c, object.paymentId ?? '', object.amountMinor) !== undefined,
  );
  // Our own refund step is still recording its lines: the event is applied again once it ends.
  const refunding = changes.find((c) => c.state === 'REFUNDING');
  if (refunding)
    return {
      result: 'later',
      outcome: `waiting: policy change ${refunding.id} is still refunding`,
      until: new Date(Date.parse(now(deps)) + deps.graceSeconds * 1000 + 1000).toISOString(),
    };
  // The newest change that booked this refund as paid (an ATTENTION one with the line unpaid is not listed: done already).
  const booked = changes.find((c) => c.state === 'SETTLED' || c.state === 'ATTENTION');
  if (!booked) return done('nothing: no refund of ours is booked as paid for it');
  const refunds = (booked.refunds ?? []).map((l) =>
    l === paidLineOf(booked, object.paymentId ?? '', object.amountMinor) ? { ...l, refunded: false } : l,
  );
  const moved = await moveChange(
    deps.db,
    booked,
    ['SETTLED', 'ATTENTION'],
    'ATTENTION',
    { refunds, declineReason: REFUND_FAILED },
    now(deps),
    booked.updatedAt,
  );
  if (!moved)
    return { result: 'later', outcome: `waiting: policy change ${booked.id} moved meanwhile`, until: now(deps) };
  deps.log?.error(
    {
      changeId: booked.id,
      policyNumber,
      paymentId: object.paymentId,
      refundId: object.refundId,
      amountMinor: object.amountMinor,
      failureReason: object.failureReason,
    },
    'stripe: a refund failed after Stripe accepted it; the policy change waits in ATTENTION for an operator',
  );
  return done(
    `policy change ${booked.id}: refund ${object.refundId} failed (${object.failureReason ?? object.status}) → ATTENTION`,
  );
}
