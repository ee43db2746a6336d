import { findPurchaseOfPayment } from '../../../purchases/repository.js';
import { findChangeOfPayment } from '../../../policy-changes/repository-payments.js';
import { done, type ApplyDeps } from './apply-payments.js';
import type { Application, ObjectFacts } from './model.js';
import { recordDispute } from './repository.js';

/**
 * `charge.dispute.created` / `charge.dispute.closed`: the dispute recorded against the policy's
 * payment (its status kept current) and logged for operators. No partner event: the contract's
 * catalogue (events/model.ts `EVENT_TYPES`) has no dispute type, and a chargeback is between the
 * insurer, the cardholder and the card network, not a change of the partner's policy.
 */
export async function applyDispute(
  deps: ApplyDeps,
  type: string,
  object: ObjectFacts,
  eventCreatedAt: string,
): Promise<Application> {
  if (object.kind !== 'dispute') return done('nothing: not a dispute');
  if (object.paymentId === undefined) return done('nothing: the dispute names no payment');
  const purchase = await findPurchaseOfPayment(deps.db, object.paymentId);
  const policyNumber = purchase?.policyNumber ?? (await findChangeOfPayment(deps.db, object.paymentId))?.policyNumber;
  const closed = type === 'charge.dispute.closed';
  await recordDispute(deps.db, {
    disputeId: object.disputeId,
    paymentId: object.paymentId,
    ...(policyNumber !== undefined ? { policyNumber } : {}),
    amountMinor: object.amountMinor,
    currency: object.currency,
    reason: object.reason,
    status: object.status,
    at: eventCreatedAt,
    closed,
  });
  deps.log?.warn(
    {
      disputeId: object.disputeId,
      paymentId: object.paymentId,
      policyNumber,
      amountMinor: object.amountMinor,
      reason: object.reason,
      status: object.status,
    },
    closed ? 'stripe: a dispute was closed' : 'stripe: a cardholder disputed a payment',
  );
  const against = policyNumber === undefined ? 'a payment of no known policy' : `policy ${policyNumber}`;
  return done(`dispute ${object.disputeId} ${closed ? 'closed' : 'opened'} against ${against} (${object.status})`);
}
