import { minorDigits, toMajor } from '../kernel/money/units.js';
import type { Notification } from '../kernel/notifications/notification.js';
import { problem } from '../kernel/notifications/problems.js';
import { refundProgress } from './ledger.js';
import type { PolicyChange } from './model.js';
import { REFUND_GATEWAY_UNAVAILABLE } from './refunds.js';

/**
 * The Notifications that explain a change whose payment or refund did not go (all) through, as the
 * confirm answers them and a read of the change shows them (docs/api-contract.md, "Confirming a
 * change"). Pure.
 */
export function outcomeNotifications(change: PolicyChange): Notification[] {
  const reason = change.declineReason ?? '';
  const card = 'cardToken.token';
  if (change.state === 'PREVIEW' && change.paymentResult === 'GATEWAY_ERROR')
    return [
      problem(
        'PAYMENT_GATEWAY_ERROR',
        'The payment gateway failed; nothing was charged. Retry later.',
        card,
        undefined,
        { reason },
      ),
    ];
  if (change.state === 'PREVIEW' && change.paymentResult !== undefined)
    return [
      problem('PAYMENT_DECLINED', 'The card was declined; confirm again with another card.', card, undefined, {
        reason,
        paymentResult: change.paymentResult,
      }),
    ];
  switch (change.state) {
    case 'REFUND_DECLINED':
      return [
        problem(
          'REFUND_DECLINED',
          reason === REFUND_GATEWAY_UNAVAILABLE
            ? 'The payment gateway stayed unavailable; nothing was refunded or changed. Confirm a new preview later.'
            : 'The card refused the refund; nothing was changed. Contact support.',
          'policyNumber',
          undefined,
          { reason },
        ),
      ];
    case 'ATTENTION':
      return [incomplete(change, reason)];
    case 'VOIDED':
      return [
        problem(
          'CHANGE_NOT_APPLIED',
          'The change could not be applied; the card authorisation was released and nothing was charged.',
          'policyNumber',
        ),
      ];
    default:
      return [];
  }
}

/**
 * A change an operator must finish. A refund that ended part-way and booked that part says what
 * went back and what is owed still (major units); an older one, or a capture the gateway refused
 * (a wording kept as it was), only the reason.
 */
function incomplete(change: PolicyChange, reason: string): Notification {
  if (change.amountMinor > 0 || change.sequenceNumber === undefined)
    return problem(
      'REFUND_INCOMPLETE',
      'Part of the refund went through; an operator completes the change.',
      'policyNumber',
      undefined,
      { reason },
    );
  const { refundedMinor, outstandingMinor } = refundProgress(change);
  const digits = minorDigits(change.currency);
  const [refunded, outstanding] = [toMajor(refundedMinor, digits), toMajor(outstandingMinor, digits)];
  return problem(
    'REFUND_INCOMPLETE',
    `Applied with ${refunded.toFixed(digits)} ${change.currency} refunded; the ${outstanding.toFixed(digits)} outstanding is owed to the customer and paid by an operator.`,
    'policyNumber',
    undefined,
    { reason, refundedAmount: refunded, outstandingAmount: outstanding },
  );
}
