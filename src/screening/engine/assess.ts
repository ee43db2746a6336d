import { minorDigits, toMinor } from '../../kernel/money/units.js';
import type { ConditionRule, PlanScreening, ScoreBand } from '../../catalogue/screening.js';
import type {
  ConditionAssessment,
  ConditionOutcome,
  ScreeningAnswers,
  ScreeningTrip,
  TravellerAssessment,
  TravellerOutcome,
} from '../model.js';
import {
  TRAVEL_MODE_ID,
  followUpId,
  namesOf,
  planOf,
  single,
  textIn,
  type Declarable,
  type EngineData,
} from './data.js';
import { declared, screeningNeeded } from './flow.js';

/**
 * The score and outcome of complete, checked answers (catalogue/README.md, "Medical screening"):
 *   condition score  s_c = R × M × w_c × Π(follow-up choice weights) × P_c
 *   traveller score  S   = R × M × Π_c (w_c × Π(follow-up choice weights) × P_c)   (1 when nothing is declared)
 * where the product leaves out conditions covered automatically and the fixed test conditions.
 * R: the highest multiplier of the trip's destinations' rating regions; M: the travel mode's factor;
 * P_c: the highest pair weight of the condition with one of those rating regions (1 when none).
 * Scores are rounded to 4 decimals, then a condition's falls in the plan's first band whose `upTo`
 * it does not exceed.
 */

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** The trip's rating regions, from its destination codes. */
function ratingRegions(data: EngineData, destinationCodes: readonly string[]): string[] {
  return destinationCodes.map((code) => {
    const region = data.regionOf.get(code);
    if (!region) throw new Error(`Screening: destination '${code}' is not in the catalogue version`);
    return region;
  });
}

function bandOf(plan: PlanScreening, score: number): ScoreBand {
  const band = plan.bands.find((b) => b.upTo === undefined || score <= b.upTo) ?? plan.bands.at(-1);
  if (!band) throw new Error('Screening: a plan without bands');
  return band;
}

/** w_c × Π(follow-up choice weights) × P_c: the condition's own part of the score. */
function ownFactor(
  data: EngineData,
  rule: ConditionRule,
  answers: ScreeningAnswers,
  regions: readonly string[],
): number {
  let factor = rule.weight;
  for (const question of rule.questions) {
    const code = single(answers, followUpId(rule.code, question.id));
    const choice = question.choices.find((c) => c.code === code);
    if (choice) factor *= choice.weight;
  }
  const pairs = data.rules.pairs[rule.code] ?? {};
  return factor * Math.max(1, ...regions.map((r) => pairs[r] ?? 1));
}

function autoCovered(rule: ConditionRule, answers: ScreeningAnswers): boolean {
  return (
    rule.autoCover?.every((c) => c.choices.includes(single(answers, followUpId(rule.code, c.question)) ?? '')) ?? false
  );
}

interface Assessed {
  readonly assessment: ConditionAssessment;
  /** The condition's part of the traveller's score: 1 for a test condition or one covered automatically. */
  readonly own: number;
  readonly declinesTraveller: boolean;
}

function assessOne(
  data: EngineData,
  d: Declarable,
  trip: ScreeningTrip,
  plan: PlanScreening,
  common: number,
  answers: ScreeningAnswers,
  regions: readonly string[],
): Assessed {
  const name = textIn(namesOf(d), trip.language);
  if (d.kind === 'TEST') {
    const { test } = d;
    const digits = minorDigits(trip.currencyCode);
    const [premium, excess] = test.outcome === 'COVERED' ? [test.medicalPremium, test.excess] : [0, 0];
    const assessment: ConditionAssessment = {
      conditionCode: test.code,
      name,
      score: 1,
      outcome: test.outcome,
      medicalPremiumMinor: toMinor(premium, digits),
      excessMinor: toMinor(excess, digits),
    };
    return { assessment, own: 1, declinesTraveller: test.declinesTraveller };
  }
  const { rule } = d;
  const own = ownFactor(data, rule, answers, regions);
  const score = round4(common * own);
  const of = (outcome: ConditionOutcome, medicalPremiumMinor = 0, excessMinor = 0): ConditionAssessment => ({
    conditionCode: rule.code,
    name,
    score,
    outcome,
    medicalPremiumMinor,
    excessMinor,
  });
  if (autoCovered(rule, answers)) return { assessment: of('AUTO_COVERED'), own: 1, declinesTraveller: false };
  const band = bandOf(plan, score);
  const assessment =
    band.outcome === 'COVERED' ? of('COVERED', band.medicalPremiumMinor, band.excessMinor) : of(band.outcome);
  return { assessment, own, declinesTraveller: band.declinesTraveller };
}

/** The assessment of answers the flow found complete and checkAnswers accepted. */
export function assessAnswers(data: EngineData, trip: ScreeningTrip, answers: ScreeningAnswers): TravellerAssessment {
  if (!screeningNeeded(data, answers)) {
    return {
      outcome: 'NO_SCREENING_NEEDED',
      score: 1,
      conditions: [],
      medicalPremiumMinor: 0,
      excessMinor: 0,
      signposting: false,
    };
  }
  const plan = planOf(data, trip);
  if (!plan) throw new Error(`Screening: plan ${trip.brandCode}/${trip.planCode} offers no screening`);
  const regions = ratingRegions(data, trip.destinationCodes);
  const regionFactor = Math.max(...regions.map((r) => data.rules.regions[r] ?? 1));
  const mode = single(answers, TRAVEL_MODE_ID);
  const modeFactor = data.rules.travelMode.choices.find((c) => c.code === mode)?.weight ?? 1;
  const common = regionFactor * modeFactor;
  const assessed = declared(data, answers).map((d) => assessOne(data, d, trip, plan, common, answers, regions));
  const conditions = assessed.map((a) => a.assessment);
  const score = assessed.length === 0 ? 1 : round4(assessed.reduce((s, a) => s * a.own, common));
  const declinedTraveller = score > plan.declineTravellerAbove || assessed.some((a) => a.declinesTraveller);
  const covered = conditions.filter((c) => c.outcome === 'COVERED');
  const medicalPremiumMinor = covered.reduce((sum, c) => sum + c.medicalPremiumMinor, 0);
  const excessMinor = Math.max(0, ...covered.map((c) => c.excessMinor));
  const outcome: TravellerOutcome = declinedTraveller
    ? 'DECLINED'
    : conditions.some((c) => c.outcome === 'REFERRED')
      ? 'REFERRED'
      : conditions.some((c) => c.outcome === 'EXCLUDED' || c.outcome === 'DECLINED')
        ? 'COVERED_WITH_EXCLUSIONS'
        : 'COVERED';
  return {
    outcome,
    score,
    conditions,
    medicalPremiumMinor,
    excessMinor,
    signposting: signposting(trip.currencyCode, outcome, conditions, medicalPremiumMinor),
  };
}

/** The signposting threshold of FCA PS20/3: a medical premium of £100 or more. */
const SIGNPOSTING_PREMIUM_GBP = 100;

/**
 * UK rule (FCA PS20/3): point the customer to the medical cover directory when cover is declined (a
 * condition or the traveller), an exclusion applies, or the medical premium is £100 or more.
 */
function signposting(
  currencyCode: string,
  outcome: TravellerOutcome,
  conditions: readonly ConditionAssessment[],
  premiumMinor: number,
): boolean {
  if (currencyCode !== 'GBP') return false;
  if (outcome === 'DECLINED') return true;
  if (conditions.some((c) => c.outcome === 'DECLINED' || c.outcome === 'EXCLUDED')) return true;
  return premiumMinor >= toMinor(SIGNPOSTING_PREMIUM_GBP, minorDigits('GBP'));
}
