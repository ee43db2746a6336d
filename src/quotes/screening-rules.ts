import type { Notification } from '../kernel/notifications/notification.js';
import { problem, warning } from '../kernel/notifications/problems.js';
import type { TravellerScreening } from '../screening/model.js';
import type { QuoteInput } from './schemas.js';

/**
 * What the travellers' medical screenings (TravelClear) mean for a quote: pure rules over the
 * input's `travelClearOption`s and the screenings the screening area hands over. Notifications
 * name the holder and outcome only: no condition, answer or score (health data) ever goes in one.
 */

export type ScreeningGapCode = 'SCREENING_REQUIRED' | 'SCREENING_STALE' | 'SCREENING_NOT_OFFERED';

/** A traveller whose screening is missing or out of date, as the JSON path to their choice. */
export interface ScreeningGap {
  readonly property: string;
  readonly code: ScreeningGapCode;
  readonly message: string;
}

const holdersOf = (input: QuoteInput) =>
  (input.policyHolders ?? []).map((holder, index) => ({
    holder,
    path: `input.policyHolders[${index}].travelClearOption`,
  }));

/** A traveller who asked for screening, or for the cover that needs one. */
const optedIn = (option: { isOptedInForScreening?: boolean; isOptedInForCover?: boolean } | undefined): boolean =>
  option?.isOptedInForScreening === true || option?.isOptedInForCover === true;

const screeningOf = (screenings: readonly TravellerScreening[], guid: string | undefined) =>
  screenings.find((s) => s.travellerGuid === guid);

/**
 * The opted-in travellers without a COMPLETED screening: none, in progress, or STALE; on a plan
 * that offers no screening (`offered` false), every opted-in traveller (none can be screened).
 */
export function screeningGaps(
  input: QuoteInput,
  screenings: readonly TravellerScreening[],
  offered = true,
): ScreeningGap[] {
  return holdersOf(input).flatMap(({ holder, path }): ScreeningGap[] => {
    if (!optedIn(holder.travelClearOption)) return [];
    if (!offered)
      return [
        {
          property: path,
          code: 'SCREENING_NOT_OFFERED',
          message:
            'The chosen plan offers no medical screening: opt this traveller out of screening and cover, or choose a plan that offers it.',
        },
      ];
    const screening = screeningOf(screenings, holder.guid);
    if (screening?.status === 'COMPLETED' && screening.assessment) return [];
    if (screening?.status === 'STALE')
      return [
        {
          property: path,
          code: 'SCREENING_STALE',
          message:
            'The trip or travellers changed after this traveller was screened; the traveller must be screened again.',
        },
      ];
    return [
      {
        property: path,
        code: 'SCREENING_REQUIRED',
        message: 'This traveller opted in for medical screening and has no completed screening yet.',
      },
    ];
  });
}

/** The completed screenings of the travellers opted in for cover, with the holder's path. */
export function coveredScreenings(input: QuoteInput, screenings: readonly TravellerScreening[]) {
  return holdersOf(input).flatMap(({ holder, path }) => {
    if (holder.travelClearOption?.isOptedInForCover !== true) return [];
    const screening = screeningOf(screenings, holder.guid);
    const assessment = screening?.status === 'COMPLETED' ? screening.assessment : undefined;
    return assessment && holder.guid ? [{ travellerGuid: holder.guid, path, screening, assessment }] : [];
  });
}

/**
 * The medical premiums the chosen plan carries. A screening is taken for the quote's chosen plan
 * (`input.planId`; a change of plan makes it STALE), so only that plan's price gets them.
 */
export function medicalPremiums(input: QuoteInput, screenings: readonly TravellerScreening[]) {
  const planId = input.planId ?? 0;
  if (planId === 0) return [];
  return coveredScreenings(input, screenings).map((s) => ({
    planId,
    travellerGuid: s.travellerGuid,
    premium: s.assessment.medicalPremiumMinor,
  }));
}

/** The MoneyHelper directory the FCA (PS20/3) names; shown when an assessment says so. */
export const MEDICAL_COVER_DIRECTORY_TEXT =
  'If you cannot get cover for a medical condition, or its cost is high, the MoneyHelper travel insurance ' +
  'directory lists insurers that may cover it: moneyhelper.org.uk/travel-insurance-directory or 0800 138 7777.';

/** Information notices of a quote: the medical cover directory (UK signposting). */
export function screeningNotices(input: QuoteInput, screenings: readonly TravellerScreening[]): Notification[] {
  return holdersOf(input).flatMap(({ holder, path }) => {
    const screening = screeningOf(screenings, holder.guid);
    if (!optedIn(holder.travelClearOption) || screening?.assessment?.signposting !== true) return [];
    return [warning('MEDICAL_COVER_DIRECTORY', MEDICAL_COVER_DIRECTORY_TEXT, path)];
  });
}

/**
 * Why a quote's screenings stop its purchase, before any money moves: a missing or STALE screening
 * of an opted-in traveller, a traveller DECLINED, or a referral awaiting an underwriter.
 */
export function screeningPurchaseProblems(
  input: QuoteInput,
  screenings: readonly TravellerScreening[],
  offered = true,
): Notification[] {
  const gaps = screeningGaps(input, screenings, offered).map((g) => problem(g.code, g.message, `quote.${g.property}`));
  const outcomes = holdersOf(input).flatMap(({ holder, path }) => {
    const screening = screeningOf(screenings, holder.guid);
    if (!optedIn(holder.travelClearOption) || screening?.status !== 'COMPLETED') return [];
    const outcome = screening.assessment?.outcome;
    if (outcome === 'DECLINED')
      return [
        problem(
          'SCREENING_DECLINED',
          'The medical screening declined this traveller: the quote cannot be bought with this traveller.',
          `quote.${path}`,
        ),
      ];
    if (outcome === 'REFERRED')
      return [
        problem(
          'SCREENING_REFERRED',
          'The medical screening of this traveller awaits an underwriter: the quote cannot be bought until then.',
          `quote.${path}`,
        ),
      ];
    return [];
  });
  return [...gaps, ...outcomes];
}
