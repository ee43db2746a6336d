import { normaliseCode, type RateIndex } from './rate-index.js';
import type { Campaign } from './rate-tables.js';
import type { CampaignStatus } from './results.js';

export interface CampaignMatch {
  status: CampaignStatus;
  campaign?: Campaign;
}

/**
 * The campaign a code gives a plan on a date for a partner. Among campaigns sharing the code, the
 * first (table order) valid on the date, for the partner and the plan applies; otherwise the
 * status says which test every candidate failed first (period, then partner, then plan).
 */
export function matchCampaign(
  index: RateIndex,
  code: string | undefined,
  planCode: string,
  partnerCode: string | undefined,
  quoteDate: string,
): CampaignMatch {
  if (code === undefined || code.trim() === '') return { status: 'NONE' };
  const candidates = index.campaigns.get(normaliseCode(code)) ?? [];
  if (candidates.length === 0) return { status: 'UNKNOWN_CODE' };
  // Dates are YYYY-MM-DD, so text order is date order.
  const inPeriod = candidates.filter((c) => c.validFrom <= quoteDate && quoteDate <= c.validTo);
  if (inPeriod.length === 0) return { status: 'NOT_IN_PERIOD' };
  const forPartner = inPeriod.filter(
    (c) => !c.partnerCodes || (partnerCode !== undefined && c.partnerCodes.includes(partnerCode)),
  );
  if (forPartner.length === 0) return { status: 'NOT_FOR_PARTNER' };
  const campaign = forPartner.find((c) => !c.planCodes || c.planCodes.includes(planCode));
  return campaign ? { status: 'APPLIED', campaign } : { status: 'NOT_FOR_PLAN' };
}
