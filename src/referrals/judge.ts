import { DateTime } from 'luxon';
import type { CatalogueReader } from '../catalogue/reader.js';
import { NO_REFERRALS, referralRulesOf, type UnderwritingAuthority } from '../catalogue/referrals.js';
import { CatalogueNotLoaded } from '../catalogue/errors.js';
import { brandTimeZone } from '../catalogue/service.js';
import type { Executor } from '../db/database.js';
import { dateIn } from '../kernel/calendar/zones.js';
import { minorDigits } from '../kernel/money/units.js';
import { hasOverlappingPolicy } from '../policies/repository-duplicates.js';
import type { QuoteReferralView } from '../quotes/ports.js';
import type { QuoteInput } from '../quotes/schemas.js';
import type { TravellerOutcome, TravellerScreening } from '../screening/model.js';
import type { Referral } from './model.js';
import { firedReasons, namedTravellers, needsDuplicateCheck } from './rules.js';

/** What judging a quote needs: the database (duplicate policies) and the catalogue (rules). */
export interface JudgeDeps {
  readonly db: Executor;
  readonly catalogue: CatalogueReader;
}

export interface JudgeRequest {
  readonly brandCode: string;
  readonly input: QuoteInput;
  readonly screenings: readonly TravellerScreening[];
  readonly now: Date;
  /** An amendment's own policy: not a duplicate of the policy amended. */
  readonly excludePolicyNumber?: string;
}

/** The last day of cover the input asks for (a multi-trip without an end: a year less a day). */
function coverEndOf(input: QuoteInput, departure: string): string {
  if (input.coverEndDate) return input.coverEndDate;
  if (input.quoteType === 'MULTITRIP')
    return DateTime.fromISO(departure).plus({ years: 1, days: -1 }).toISODate() ?? departure;
  return input.returnDate ?? departure;
}

/** The outcomes of the completed screenings of travellers opted in (as the purchase reads them). */
function screeningOutcomes(input: QuoteInput, screenings: readonly TravellerScreening[]): TravellerOutcome[] {
  return (input.policyHolders ?? []).flatMap((holder) => {
    const option = holder.travelClearOption;
    if (option?.isOptedInForScreening !== true && option?.isOptedInForCover !== true) return [];
    const screening = screenings.find((s) => s.travellerGuid === holder.guid);
    const outcome = screening?.status === 'COMPLETED' ? screening.assessment?.outcome : undefined;
    return outcome ? [outcome] : [];
  });
}

/** The reason codes of the brand's (or the chosen plan's) rules that fire on the input, and the brand's authority. */
export async function judgeInput(
  deps: JudgeDeps,
  request: JudgeRequest,
): Promise<{ reasons: string[]; authority: UnderwritingAuthority; currency: string }> {
  const snapshot = await deps.catalogue.snapshot().catch((error: unknown) => {
    // Quotes priced by other ports (tests' in-memory catalogues) before any import: no rules.
    if (error instanceof CatalogueNotLoaded) return undefined;
    throw error;
  });
  const brand = snapshot?.brands.get(request.brandCode);
  if (!snapshot || !brand) return { reasons: [], authority: NO_REFERRALS.authority, currency: '' };
  const { input } = request;
  const plan = brand.plans.find((p) => p.planId === input.planId);
  const rules = referralRulesOf(brand.referrals, plan?.code);
  const currency = brand.brand.currencyCode;
  if (rules.length === 0) return { reasons: [], authority: brand.referrals.authority, currency };
  const departure = input.departureDate;
  const hasDuplicatePolicy =
    departure !== undefined && needsDuplicateCheck(rules, input)
      ? await hasOverlappingPolicy(
          deps.db,
          request.brandCode,
          namedTravellers(input),
          departure,
          coverEndOf(input, departure),
          request.excludePolicyNumber,
        )
      : false;
  const reasons = firedReasons(rules, {
    input,
    quoteDate: dateIn(request.now, brandTimeZone(snapshot, brand)),
    minorPerMajor: 10 ** minorDigits(currency),
    screeningOutcomes: screeningOutcomes(input, request.screenings),
    hasDuplicatePolicy,
  });
  return { reasons, authority: brand.referrals.authority, currency };
}

/** A referral as the quote's answers show it. */
export function referralView(referral: Referral): QuoteReferralView {
  const decided = referral.status === 'APPROVED' || referral.status === 'DECLINED';
  return {
    status: referral.status,
    reasonCodes: referral.reasonCodes,
    referredAt: referral.referredAt,
    ...(decided && referral.decidedAt !== undefined ? { decidedAt: referral.decidedAt } : {}),
    ...(referral.status === 'APPROVED'
      ? { loadingPercentage: referral.loadingPercentage ?? 0, extraExcessMinor: referral.extraExcessMinor ?? 0 }
      : {}),
    ...(referral.status === 'DECLINED' && referral.declineReason !== undefined
      ? { declineReason: referral.declineReason }
      : {}),
    ...(referral.status === 'INFORMATION_REQUESTED' && referral.informationRequested !== undefined
      ? { informationRequested: referral.informationRequested }
      : {}),
  };
}
