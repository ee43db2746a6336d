import type { BrandCode } from '../../kernel/brands.js';
import type {
  BrandScreening,
  ChoiceRule,
  ConditionRule,
  QuestionRule,
  ScreeningCatalogue,
  TestConditionRule,
  Texts,
} from '../../catalogue/screening.js';
import type { ScreeningAnswers, ScreeningQuestion, ScreeningTrip } from '../model.js';

/** What the engine of one catalogue version holds, indexed once when it is built. */
export interface EngineData {
  readonly rules: ScreeningCatalogue;
  /** Every condition a traveller may declare, in catalogue order (test conditions last, when enabled). */
  readonly declarable: readonly Declarable[];
  readonly brands: ReadonlyMap<BrandCode, BrandScreening>;
  /** Destination code (country, region or list) → rating region. */
  readonly regionOf: ReadonlyMap<string, string>;
}

export type Declarable =
  { readonly kind: 'RULE'; readonly rule: ConditionRule } | { readonly kind: 'TEST'; readonly test: TestConditionRule };

export function codeOf(d: Declarable): string {
  return d.kind === 'RULE' ? d.rule.code : d.test.code;
}

export function namesOf(d: Declarable): Texts {
  return d.kind === 'RULE' ? d.rule.names : d.test.names;
}

/** A text in the trip's language; English, then any, when the catalogue lacks it (validation requires every brand language). */
export function textIn(texts: Texts, language: string): string {
  return texts[language] ?? texts.en ?? Object.values(texts)[0] ?? '';
}

/** Question ids of the flow (model.ts `QuestionId`). */
export const TRAVEL_MODE_ID = 'travelMode';
export const CONDITIONS_ID = 'conditions';
export const gateId = (id: string): string => `gate.${id}`;
export const followUpId = (conditionCode: string, id: string): string => `${conditionCode}.${id}`;

/** One question of the flow, before it is put in the trip's language. */
export interface FlowQuestion extends Omit<ScreeningQuestion, 'text' | 'choices'> {
  readonly text: Texts;
  readonly choices: readonly ChoiceRule[];
}

export function followUpOf(conditionCode: string, question: QuestionRule): FlowQuestion {
  return {
    id: followUpId(conditionCode, question.id),
    kind: 'FOLLOW_UP',
    conditionCode,
    text: question.text,
    choices: question.choices,
    multiple: false,
  };
}

/** The one choice of a single-choice answer; undefined when unanswered or not exactly one. */
export function single(answers: ScreeningAnswers, id: string): string | undefined {
  const codes = answers[id];
  return codes?.length === 1 ? codes[0] : undefined;
}

export function planOf(data: EngineData, trip: Pick<ScreeningTrip, 'brandCode' | 'planCode'>) {
  return data.brands.get(trip.brandCode)?.plans[trip.planCode];
}
