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

function amendmentEvent(referral: Referral, at: string): NewPartnerEvent | undefined {
  if (referral.status === 'WITHDRAWN' || referral.status === 'INFORMATION_REQUESTED') return undefined;
  const type = AMENDMENT_TYPE_OF[referral.status];
  return {
    type,
    sourceKey: `${type}:${referral.id}:${referral.version}`,
    partnerId: referral.partnerId,
    brandCode: referral.brandCode,
    at,
    data: {
      policyNumber: referral.policyNumber ?? '',
      amendmentId: referral.policyChangeId ?? '',
      brandCode: referral.brandCode,
      referralStatus: referral.status,
      reasonCodes: referral.reasonCodes,
      referredAt: referral.referredAt,
      ...(referral.decidedAt === undefined ? {} : { decidedAt: referral.decidedAt }),
    },
  };
}

/** The event of the referral as it now is; none for a withdrawal (the partner did it). */
export function referralEvent(referral: Referral, currency: string, at: string): NewPartnerEvent | undefined {
  if (referral.policyChangeId !== undefined) return amendmentEvent(referral, at);
  if (referral.status === 'WITHDRAWN') return undefined;
  const type = TYPE_OF[referral.status];
  const approved = referral.status === 'APPROVED';
  return {
    type,
    // One event per state the referral reaches (its version counts every change).
    sourceKey: `${type}:${referral.id}:${referral.version}`,
    partnerId: referral.partnerId,
    brandCode: referral.brandCode,
    at,
    data: {
      quoteId: referral.quoteId,
      brandCode: referral.brandCode,
      referralStatus: referral.status,
      reasonCodes: referral.reasonCodes,
      referredAt: referral.referredAt,
      ...(referral.decidedAt === undefined ? {} : { decidedAt: referral.decidedAt }),
      ...(approved
        ? {
            loadingPercentage: referral.loadingPercentage ?? 0,
            extraExcess: toMajor(referral.extraExcessMinor ?? 0, minorDigits(currency)),
            currency,
          }
        : {}),
    },
  };
}
