import { breakDown, type Rates } from './breakdown.js';
import type { Minor } from '../kernel/money/units.js';
import type { PricedOption } from './options.js';
import type { PricingRequest } from './request.js';

/**
 * optionTypeCode of a traveller's medical screening premium (TravelClear): one line per traveller
 * opted in for cover whose screening completed, on the plan screened (docs/pricing.md "Medical").
 */
export const MEDICAL_OPTION_TYPE = 'MEDICAL';
/** The medical line is not a rate-table option: it has no catalogue option id. */
export const MEDICAL_OPTION_ID = 0;

/**
 * The medical lines of one plan, in the request's order. The screening engine already priced the
 * loading; here it only gets the plan's commission. Insurers do not discount a medical loading, so
 * neither the campaign nor the partner discount applies (their percentages are 0 for these lines).
 * A premium of 0 (covered without loading) still gives a line, so the quote shows the screening.
 */
export function priceMedical(planCode: string, request: PricingRequest, commissionPercentage: number): PricedOption[] {
  const rates: Rates = { commissionPercentage, campaignPercentage: 0, partnerPercentage: 0 };
  const travellers = new Set(request.travellers.map((t) => t.guid));
  return (request.medicalPremiums ?? [])
    .filter((m) => m.planCode === planCode && travellers.has(m.travellerGuid))
    .map((m) => line(m.travellerGuid, m.premium, rates));
}

function line(travellerGuid: string, premium: Minor, rates: Rates): PricedOption {
  const whole = breakDown(premium, rates);
  return Object.assign({ optionId: MEDICAL_OPTION_ID, optionTypeCode: MEDICAL_OPTION_TYPE }, whole, {
    policyHolderGuid: travellerGuid,
    isOptionExplicit: true,
    isDefault: false,
    priceDetails: [Object.assign({ itemGuid: travellerGuid, isDefault: false }, whole)],
  });
}
