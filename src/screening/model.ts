import type { BrandCode } from '../kernel/brands.js';

/**
 * Medical screening (the contract's TravelClear): the domain types the screening engine (catalogue
 * data turned into questions and an assessment) and the screening API (a traveller's answers, sealed,
 * and the result) share. The engine is pure and deterministic: the same catalogue, trip and answers
 * always give the same assessment, so it is the sandbox the tests rely on.
 */

/** How the traveller travels; a factor of the score (cruise weighs more). */
export const TRAVEL_MODES = ['AIR', 'CRUISE', 'BOTH', 'NONE'] as const;
export type TravelMode = (typeof TRAVEL_MODES)[number];

/** What the insurer's rules make of one declared condition. */
export const CONDITION_OUTCOMES = [
  /** Covered without screening premium: the condition meets the catalogue's automatic-cover criteria. */
  'AUTO_COVERED',
  /** Covered, possibly with a medical premium and/or an extra excess. */
  'COVERED',
  /** Not covered: claims arising from it are excluded; the rest of the policy covers the traveller. */
  'EXCLUDED',
  /** Cover for the condition declined; like EXCLUDED for the policy, said so separately (signposting). */
  'DECLINED',
  /** An underwriter must decide; the quote cannot be bought until then. */
  'REFERRED',
] as const;
export type ConditionOutcome = (typeof CONDITION_OUTCOMES)[number];

/** The traveller's outcome, from the conditions' outcomes and the plan's rules. */
export const TRAVELLER_OUTCOMES = [
  /** The gate questions were all answered "no": nothing to screen, standard cover. */
  'NO_SCREENING_NEEDED',
  /** Every declared condition AUTO_COVERED or COVERED. */
  'COVERED',
  /** Covered, with at least one condition EXCLUDED or DECLINED. */
  'COVERED_WITH_EXCLUSIONS',
  /** The whole traveller declined by the plan's rules: the quote cannot be bought with this traveller. */
  'DECLINED',
  /** At least one condition REFERRED (and none declines the traveller). */
  'REFERRED',
] as const;
export type TravellerOutcome = (typeof TRAVELLER_OUTCOMES)[number];

/**
 * A question's id is stable within a catalogue version: `gate.<id>` for a gate question,
 * `travelMode`, `conditions` (the declared conditions, several choices), `<conditionCode>.<id>` for
 * a condition's follow-up question.
 */
export type QuestionId = string;

/** What a question asks: a gate question, the travel mode, the declared conditions, a condition's follow-up. */
export const QUESTION_KINDS = ['GATE', 'TRAVEL_MODE', 'CONDITIONS', 'FOLLOW_UP'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export interface ScreeningChoice {
  readonly code: string;
  /** In the asked language. */
  readonly text: string;
}

export interface ScreeningQuestion {
  readonly id: QuestionId;
  readonly kind: QuestionKind;
  /** FOLLOW_UP only: the condition it asks about. */
  readonly conditionCode?: string;
  /** In the asked language. */
  readonly text: string;
  /** Gate questions: `YES`/`NO`; travel mode: TRAVEL_MODES; conditions: every condition the plan screens. */
  readonly choices: readonly ScreeningChoice[];
  /** True only for `conditions` (several may be declared). */
  readonly multiple: boolean;
}

/** A traveller's answers so far: question id → the chosen codes (one, except for `conditions`). */
export type ScreeningAnswers = Readonly<Record<QuestionId, readonly string[]>>;

/** One answer the engine refuses, named by its question (never echoing what was answered). */
export interface AnswerProblem {
  readonly questionId: QuestionId;
  readonly code: 'UNKNOWN_QUESTION' | 'NOT_ASKED' | 'UNKNOWN_CHOICE' | 'ONE_CHOICE_ONLY' | 'NO_CHOICE';
  readonly message: string;
}

/** What of the quote the engine needs. */
export interface ScreeningTrip {
  readonly brandCode: BrandCode;
  readonly planCode: string;
  /** The quote's destination codes (countries, regions or lists, as the quote holds them). */
  readonly destinationCodes: readonly string[];
  /** Integer days of cover. */
  readonly durationDays: number;
  readonly currencyCode: string;
  /** A language of the brand; questions and condition names come in it. */
  readonly language: string;
}

export interface ConditionAssessment {
  readonly conditionCode: string;
  /** In the trip's language. */
  readonly name: string;
  /** The condition's score (1.0 = standard risk), after region, travel mode and pair weights. */
  readonly score: number;
  readonly outcome: ConditionOutcome;
  /** Minor units of the trip currency; 0 unless COVERED with a loading. */
  readonly medicalPremiumMinor: number;
  /** Minor units; the extra excess this condition adds, 0 if none. */
  readonly excessMinor: number;
}

export interface TravellerAssessment {
  readonly outcome: TravellerOutcome;
  /** The traveller's score: the product-form the catalogue documents; 1.0 when nothing is declared. */
  readonly score: number;
  readonly conditions: readonly ConditionAssessment[];
  /** Minor units: the sum over COVERED conditions (what the quote adds when opted in for cover). */
  readonly medicalPremiumMinor: number;
  /** Minor units: the extra excess (the largest of the conditions', as the catalogue documents). */
  readonly excessMinor: number;
  /**
   * UK rule (FCA PS20/3): the customer must be pointed to a medical cover directory when cover for a
   * condition is declined, an exclusion applies, or the medical premium is £100 or more. True only for
   * trips sold in GBP under those conditions.
   */
  readonly signposting: boolean;
}

/** A condition a traveller can declare, found by name or synonym (the hosted page's search). */
export interface ConditionEntry {
  readonly code: string;
  readonly name: string;
}

/**
 * Fixed test conditions (like the sandbox's test cards): no follow-up questions, the same outcome on
 * every plan that offers screening, whatever the trip. Offered only when the engine is built with
 * test conditions (every environment but production).
 * - `TEST_AUTO_COVERED` → AUTO_COVERED; `TEST_COVERED` → COVERED with a medical premium of 60.00 and
 *   an extra excess of 100.00 in the trip currency; `TEST_EXCLUDED` → EXCLUDED; `TEST_DECLINED` →
 *   DECLINED (the condition; the traveller is COVERED_WITH_EXCLUSIONS); `TEST_DECLINE_TRAVELLER` →
 *   the traveller DECLINED; `TEST_REFERRED` → REFERRED.
 * Every brand's `BASIC` plan offers no screening.
 */
export const TEST_CONDITION_CODES = [
  'TEST_AUTO_COVERED',
  'TEST_COVERED',
  'TEST_EXCLUDED',
  'TEST_DECLINED',
  'TEST_DECLINE_TRAVELLER',
  'TEST_REFERRED',
] as const;

/**
 * The order of questions: every gate question first (asked together); all answered `NO` → complete
 * (NO_SCREENING_NEEDED). Any `YES` → `travelMode` and `conditions`; then the follow-up questions of
 * each declared condition (a later question may depend on an earlier answer, so ask again after each
 * answer); none left → complete.
 */
/** The screening engine of one compiled catalogue version. */
export interface ScreeningEngine {
  /** Whether the brand's plan offers screening at all. */
  isOffered(brandCode: BrandCode, planCode: string): boolean;
  /** Problems with the answers given so far (every answer is checked); empty when they are acceptable. */
  checkAnswers(trip: ScreeningTrip, answers: ScreeningAnswers): readonly AnswerProblem[];
  /** The questions to ask next, in order; empty when the answers are complete and `assess` may run. */
  nextQuestions(trip: ScreeningTrip, answers: ScreeningAnswers): readonly ScreeningQuestion[];
  /** The assessment of complete, acceptable answers (throws a programming error otherwise). */
  assess(trip: ScreeningTrip, answers: ScreeningAnswers): TravellerAssessment;
  /** Conditions whose name or a synonym contains the query (case- and accent-insensitive), in the trip's language. */
  findConditions(trip: ScreeningTrip, query: string): readonly ConditionEntry[];
}

/** A screening's life: answers being given, a result, or a result the quote no longer matches. */
export const SCREENING_STATUSES = ['IN_PROGRESS', 'COMPLETED', 'STALE'] as const;
export type ScreeningStatus = (typeof SCREENING_STATUSES)[number];

/** Who answered the screening (the contract's AuthorizedPerson). */
export interface AuthorizedPerson {
  readonly firstName: string;
  readonly surname: string;
  readonly dateOfBirth: string;
  readonly email: string;
  readonly phone: string;
}

/**
 * One traveller's screening as the quote, the purchase and the policy see it (the screening area
 * hands this across; health detail only inside `assessment`).
 */
export interface TravellerScreening {
  /** The quote input's policy holder guid. */
  readonly travellerGuid: string;
  readonly status: ScreeningStatus;
  /** The contract's `tamisReferenceNumber`; set once completed. */
  readonly reference?: string;
  /** ISO date-time of completion. */
  readonly screenedAt?: string;
  readonly authorizedPerson?: AuthorizedPerson;
  /** Set once completed (also when STALE: what it was). */
  readonly assessment?: TravellerAssessment;
}

/** One assessed condition as a policy document prints it: its name in every catalogue language. */
export interface ConditionOnPolicy {
  readonly conditionCode: string;
  /** Language → display name, from the catalogue version the screening was made under. */
  readonly names: Readonly<Record<string, string>>;
  /** The name it was assessed with (the trip's language): for a language `names` lacks. */
  readonly assessedName: string;
  readonly outcome: ConditionOutcome;
  /** Minor units; the loading of a COVERED condition, else 0. */
  readonly medicalPremiumMinor: number;
  readonly excessMinor: number;
}

/**
 * A sold traveller's completed screening as the policy's documents show it, read at render time.
 * Health data (the conditions) is unsealed in memory only: it goes into the traveller's own
 * certificate and nowhere else (no log, event or e-mail body).
 */
export interface ScreeningOnPolicy {
  /** The contract's `tamisReferenceNumber`. */
  readonly reference: string;
  /** YYYY-MM-DD (UTC) of completion. */
  readonly screeningDate: string;
  readonly outcome: TravellerOutcome;
  /** Empty when nothing was declared, or once the health detail is purged. */
  readonly conditions: readonly ConditionOnPolicy[];
  /** The UK medical cover directory applies (TravellerAssessment `signposting`). */
  readonly signposting: boolean;
}
