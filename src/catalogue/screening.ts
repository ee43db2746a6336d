import { minorDigits, toMinor } from '../kernel/money/units.js';
import type { ConditionOutcome } from '../screening/model.js';
import type { BandFile, BrandScreeningFile, ScreeningFile } from './screening-files.js';

/**
 * The medical screening rules of a catalogue version, compiled from `shared/screening.yaml` and each
 * brand's `screening.yaml`: shared choice texts resolved, pairs indexed, amounts of brand rules in
 * minor units. The screening engine (src/screening/engine/) reads only these types.
 */

/** Text per language. */
export type Texts = Readonly<Record<string, string>>;

export interface ChoiceRule {
  readonly code: string;
  /** Multiplicative factor of the score (> 0). */
  readonly weight: number;
  readonly text: Texts;
}

export interface AnswerIsRule {
  /** A question id of the same condition (without the condition prefix). */
  readonly question: string;
  readonly choices: readonly string[];
}

export interface QuestionRule {
  readonly id: string;
  readonly text: Texts;
  readonly choices: readonly ChoiceRule[];
  readonly askedWhen?: AnswerIsRule;
}

export interface ConditionRule {
  readonly code: string;
  readonly names: Texts;
  readonly synonyms: Readonly<Record<string, readonly string[]>>;
  readonly weight: number;
  readonly questions: readonly QuestionRule[];
  /** Absent: never covered automatically; empty: always. */
  readonly autoCover?: readonly AnswerIsRule[];
}

export interface TestConditionRule {
  readonly code: string;
  readonly names: Texts;
  readonly outcome: ConditionOutcome;
  /** Major units of the trip currency. */
  readonly medicalPremium: number;
  readonly excess: number;
  readonly declinesTraveller: boolean;
}

export interface ScreeningCatalogue {
  /** YES/NO questions, asked first. */
  readonly gate: readonly QuestionRule[];
  /** Choice codes are the travel modes; weights their factors. */
  readonly travelMode: { readonly text: Texts; readonly choices: readonly ChoiceRule[] };
  readonly conditionsText: Texts;
  /** Rating region → multiplier. */
  readonly regions: Readonly<Record<string, number>>;
  readonly conditions: readonly ConditionRule[];
  /** Condition code → rating region → factor. */
  readonly pairs: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly testConditions: readonly TestConditionRule[];
}

export interface ScoreBand {
  /** Highest score of the band (inclusive); absent on the last band. */
  readonly upTo?: number;
  readonly outcome: Exclude<ConditionOutcome, 'AUTO_COVERED'>;
  /** Minor units of the brand currency. */
  readonly medicalPremiumMinor: number;
  readonly excessMinor: number;
  readonly declinesTraveller: boolean;
}

export interface PlanScreening {
  /** Ascending by `upTo`; the last band is open. */
  readonly bands: readonly ScoreBand[];
  readonly declineTravellerAbove: number;
}

/** A brand's screening rules: only the plan codes that offer screening. */
export interface BrandScreening {
  readonly plans: Readonly<Record<string, PlanScreening>>;
}

/** What a catalogue version imported before screening existed answers: nothing to ask, no plan offers it. */
export const NO_SCREENING: ScreeningCatalogue = {
  gate: [],
  travelMode: { text: {}, choices: [] },
  conditionsText: {},
  regions: {},
  conditions: [],
  pairs: {},
  testConditions: [],
};
export const NO_BRAND_SCREENING: BrandScreening = { plans: {} };

/** Whether a brand's plan offers medical screening: the brand has rules for it and the catalogue asks questions. */
export const offersScreening = (rules: ScreeningCatalogue, brand: BrandScreening, planCode: string): boolean =>
  brand.plans[planCode] !== undefined && rules.gate.length > 0;

/** shared/screening.yaml compiled (checked first by checks-screening.ts). */
export function compileScreening(file: ScreeningFile): ScreeningCatalogue {
  const choice = (c: { code: string; weight: number; text?: Texts }): ChoiceRule => ({
    code: c.code,
    weight: c.weight,
    text: c.text ?? file.choiceTexts[c.code] ?? {},
  });
  const pairs: Record<string, Record<string, number>> = {};
  for (const pair of file.pairs) (pairs[pair.condition] ??= {})[pair.region] = pair.weight;
  return {
    gate: file.gate.map((g) => ({ id: g.id, text: g.text, choices: ['YES', 'NO'].map((code) => choice({ code, weight: 1 })) })),
    travelMode: { text: file.travelMode.text, choices: file.travelMode.choices.map(choice) },
    conditionsText: file.conditionsText,
    regions: file.regions,
    conditions: file.conditions.map((c) => ({
      code: c.code,
      names: c.names,
      synonyms: c.synonyms ?? {},
      weight: c.weight,
      questions: c.questions.map((q) => ({
        id: q.id,
        text: q.text,
        choices: q.choices.map(choice),
        ...(q.askedWhen ? { askedWhen: q.askedWhen } : {}),
      })),
      ...(c.autoCover ? { autoCover: c.autoCover } : {}),
    })),
    pairs,
    testConditions: file.testConditions.map((t) => ({
      code: t.code,
      names: t.names,
      outcome: t.outcome,
      medicalPremium: t.medicalPremium ?? 0,
      excess: t.excess ?? 0,
      declinesTraveller: t.declinesTraveller ?? false,
    })),
  };
}

/** A brand's screening.yaml compiled: offered plans only, bands merged over the brand's, amounts in minor units. */
export function compileBrandScreening(file: BrandScreeningFile, currencyCode: string): BrandScreening {
  const digits = minorDigits(currencyCode);
  const band = (b: BandFile): ScoreBand => ({
    ...(b.upTo === undefined ? {} : { upTo: b.upTo }),
    outcome: b.outcome,
    medicalPremiumMinor: toMinor(b.medicalPremium ?? 0, digits),
    excessMinor: toMinor(b.excess ?? 0, digits),
    declinesTraveller: b.declinesTraveller ?? false,
  });
  const plans = Object.entries(file.plans)
    .filter(([, plan]) => plan.offered)
    .map(([code, plan]) => [code, { bands: (plan.bands ?? file.bands).map(band), declineTravellerAbove: plan.declineTravellerAbove ?? file.declineTravellerAbove }]);
  return { plans: Object.fromEntries(plans) as Record<string, PlanScreening> };
}

/** A text as condition search compares it: lower case, accents and other marks removed, spaces squeezed. */
export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}
