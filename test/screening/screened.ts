import { catalogueScreeningEngine } from '../helpers/screening-engine.js';
import type {
  ScreeningAnswers,
  ScreeningEngine,
  ScreeningStatus,
  ScreeningTrip,
  TEST_CONDITION_CODES,
  TravellerScreening,
} from '../../src/screening/model.js';

/**
 * Travellers' screenings for the quote, purchase and policy tests, assessed by the REAL screening
 * engine over the repository's catalogue with its fixed test conditions (no hand-written results).
 */

/** The engine of the repository's catalogue, with the test conditions (built once). */
export const testScreeningEngine = (): Promise<ScreeningEngine> => catalogueScreeningEngine('');

/** Who answered the screenings these helpers build. */
export const ANSWERED_BY = {
  firstName: 'Ana',
  surname: 'Lee',
  dateOfBirth: '1984-03-02',
  email: 'ana@example.com',
  phone: '+61 400 000 001',
};

export type TestCondition = (typeof TEST_CONDITION_CODES)[number];

/** brandau's comprehensive plan, Sydney to Bali for 14 days (the quotes fixtures' trip). */
export const BALI_SCREENING_TRIP: ScreeningTrip = {
  brandCode: 'brandau',
  planCode: 'COMP',
  destinationCodes: ['IDN'],
  durationDays: 14,
  currencyCode: 'AUD',
  language: 'en',
};

/** Answers declaring `conditions` (none: every gate question answered NO). */
export function answersFor(e: ScreeningEngine, trip: ScreeningTrip, conditions: readonly TestCondition[]) {
  const gates = e.nextQuestions(trip, {});
  const answers: Record<string, string[]> = Object.fromEntries(gates.map((q) => [q.id, ['NO']]));
  if (conditions.length > 0) {
    const first = gates[0];
    if (first) answers[first.id] = ['YES'];
    Object.assign(answers, { travelMode: ['AIR'], conditions: [...conditions] });
  }
  const left = e.nextQuestions(trip, answers);
  if (left.length > 0) throw new Error(`questions left: ${left.map((q) => q.id).join(', ')}`);
  return answers as ScreeningAnswers;
}

/** A traveller's screening with the engine's assessment of `conditions` on `trip`. */
export async function screened(
  travellerGuid: string,
  conditions: readonly TestCondition[],
  options: { status?: ScreeningStatus; trip?: ScreeningTrip } = {},
): Promise<TravellerScreening> {
  const e = await testScreeningEngine();
  const trip = options.trip ?? BALI_SCREENING_TRIP;
  const assessment = e.assess(trip, answersFor(e, trip, conditions));
  return {
    travellerGuid,
    status: options.status ?? 'COMPLETED',
    reference: `TC-${travellerGuid.slice(0, 8).toUpperCase()}`,
    screenedAt: '2026-11-20T09:00:00.000Z',
    authorizedPerson: ANSWERED_BY,
    assessment,
  };
}
