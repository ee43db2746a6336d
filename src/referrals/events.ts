import type { NewPartnerEvent } from '../events/model.js';
import { minorDigits, toMajor } from '../kernel/money/units.js';
import type { Referral } from './model.js';

/**
 * The partner events of a referral's changes (pure). Reason codes and terms only: no health data
 * and no free text an underwriter wrote (the quote's `referral` shows that to its partner).
 */

const TYPE_OF = {
  REFERRED: 'quote.referred',
  APPROVED: 'quote.referral_approved',
  DECLINED: 'quote.referral_declined',
  INFORMATION_REQUESTED: 'quote.information_requested',
} as const;

/** An amendment's referral: referred, approved, declined (a question is read on the console's page only). */
const AMENDMENT_TYPE_OF = {
  REFERRED: 'policy.amendment_referred',
  APPROVED: 'policy.amendment_referral_approved',
  DECLINED: 'policy.amendment_referral_declined',
} as const;

/** What the data of every referral event says of the referral as it now is. */
function stateOf(referral: Referral) {
  return {
    brandCode: referral.brandCode,
    referralStatus: referral.status,
    reasonCodes: referral.reasonCodes,
    referredAt: referral.referredAt,
    ...(referral.decidedAt === undefined ? {} : { decidedAt: referral.decidedAt }),
  };
}

/** A referral's event of `type` around its `data`. */
function referralEnvelope(
  referral: Referral,
  type: NewPartnerEvent['type'],
  at: string,
  data: NewPartnerEvent['data'],
): NewPartnerEvent {
  return {
    type,
    // One event per state the referral reaches (its version counts every change).
    sourceKey: `${type}:${referral.id}:${referral.version}`,
    partnerId: referral.partnerId,
    brandCode: referral.brandCode,
    at,
    data,
  };
}

function amendmentEvent(referral: Referral, at: string): NewPartnerEvent | undefined {
  if (referral.status === 'WITHDRAWN' || referral.status === 'INFORMATION_REQUESTED') return undefined;
  return referralEnvelope(referral, AMENDMENT_TYPE_OF[referral.status], at, {
    policyNumber: referral.policyNumber ?? '',
    amendmentId: referral.policyChangeId ?? '',
    ...stateOf(referral),
  });
}

/** The event of the referral as it now is; none for a withdrawal (the partner did it). */
export function referralEvent(referral: Referral, currency: string, at: string): NewPartnerEvent | undefined {
  if (referral.policyChangeId !== undefined) return amendmentEvent(referral, at);
  if (referral.status === 'WITHDRAWN') return undefined;
  const approved = referral.status === 'APPROVED';
  return referralEnvelope(referral, TYPE_OF[referral.status], at, {
    quoteId: referral.quoteId,
    ...stateOf(referral),
    ...(approved
      ? {
          loadingPercentage: referral.loadingPercentage ?? 0,
          extraExcess: toMajor(referral.extraExcessMinor ?? 0, minorDigits(currency)),
          currency,
        }
      : {}),
  });
}
