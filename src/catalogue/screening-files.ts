import { Type, type Static } from 'typebox';
import { CONDITION_OUTCOMES } from '../screening/model.js';

/**
 * Schemas of the medical screening files: `shared/screening.yaml` (questions, conditions, weights)
 * and `<brand>/screening.yaml` (score bands → outcomes, per plan). catalogue/README.md, "Medical
 * screening", explains how they make a score and an outcome.
 */

const Lang = Type.String({ pattern: '^[a-z]{2}$', description: 'ISO 639-1 language code.' });
const Text = Type.String({ minLength: 1 });
const Texts = Type.Record(Lang, Text, { description: 'Text per language; every language a brand offers.' });
const Strict = { additionalProperties: false } as const;
const Opt = Type.Optional;
const Weight = Type.Number({ exclusiveMinimum: 0, description: 'A multiplicative factor of the score; 1 = no effect.' });
const QuestionKey = Type.String({ pattern: '^[a-z][A-Za-z0-9]*$', description: "A question's id, unique within its condition (or among the gate questions)." });
const ChoiceCode = Type.String({ pattern: '^[A-Z][A-Z0-9_]*$' });
const ConditionCode = Type.String({ pattern: '^[A-Z][A-Z0-9_]*$' });
const Amount = Type.Number({ minimum: 0, description: 'Major units, e.g. 45.00.' });

const Choice = Type.Object(
  { code: ChoiceCode, weight: Weight, text: Opt(Texts) },
  { ...Strict, description: 'Without `text`, the text of `choiceTexts.<code>`.' },
);

/** Which answers of another question make a question (or automatic cover) apply. */
const AnswerIs = Type.Object({ question: QuestionKey, choices: Type.Array(ChoiceCode, { minItems: 1 }) }, Strict);

const FollowUp = Type.Object(
  {
    id: QuestionKey,
    text: Texts,
    choices: Type.Array(Choice, { minItems: 2 }),
    askedWhen: Opt({ ...AnswerIs, description: 'Asked only when an earlier question of the condition was answered so.' }),
  },
  Strict,
);

const Condition = Type.Object(
  {
    code: ConditionCode,
    names: Texts,
    synonyms: Opt(Type.Record(Lang, Type.Array(Text), { description: 'Other words a traveller may search for, per language.' })),
    weight: Weight,
    questions: Type.Array(FollowUp),
    autoCover: Opt(
      Type.Array(AnswerIs, { description: 'Covered automatically when every criterion holds ([] = always).' }),
    ),
  },
  Strict,
);

const TestCondition = Type.Object(
  {
    code: ConditionCode,
    names: Texts,
    outcome: Type.Enum([...CONDITION_OUTCOMES], { type: 'string' }),
    medicalPremium: Opt(Amount),
    excess: Opt(Amount),
    declinesTraveller: Opt(Type.Boolean()),
  },
  Strict,
);

// catalogue/shared/screening.yaml
export const ScreeningFile = Type.Object(
  {
    choiceTexts: Type.Record(ChoiceCode, Texts, { description: 'Texts of choice codes shared by questions (YES, NO: required).' }),
    gate: Type.Array(Type.Object({ id: QuestionKey, text: Texts }, Strict), { minItems: 1 }),
    travelMode: Type.Object({ text: Texts, choices: Type.Array(Choice, { minItems: 1 }) }, Strict),
    conditionsText: Texts,
    regions: Type.Record(Text, Weight, { description: 'Rating region → multiplier.' }),
    conditions: Type.Array(Condition, { minItems: 1 }),
    pairs: Type.Array(Type.Object({ condition: ConditionCode, region: Text, weight: Weight }, Strict)),
    testConditions: Type.Array(TestCondition),
  },
  Strict,
);
export type ScreeningFile = Static<typeof ScreeningFile>;
export type ConditionFile = Static<typeof Condition>;

const BAND_OUTCOMES = CONDITION_OUTCOMES.filter((o) => o !== 'AUTO_COVERED');
const ScoreBandFile = Type.Object(
  {
    upTo: Opt(Type.Number({ exclusiveMinimum: 0, description: 'Highest score of the band (inclusive); absent on the last band only.' })),
    outcome: Type.Enum(BAND_OUTCOMES, { type: 'string' }),
    medicalPremium: Opt(Amount),
    excess: Opt(Amount),
    declinesTraveller: Opt(Type.Boolean()),
  },
  Strict,
);
const Bands = Type.Array(ScoreBandFile, { minItems: 1 });
const DeclineAbove = Type.Number({ exclusiveMinimum: 0, description: "The traveller's score above which the whole traveller is declined." });

// catalogue/<brand>/screening.yaml
export const BrandScreeningFile = Type.Object(
  {
    bands: Bands,
    declineTravellerAbove: DeclineAbove,
    plans: Type.Record(
      Text,
      Type.Object({ offered: Type.Boolean(), bands: Opt(Bands), declineTravellerAbove: Opt(DeclineAbove) }, Strict),
      { description: 'Plan code → whether it offers screening, and what differs from the brand bands.' },
    ),
  },
  Strict,
);
export type BrandScreeningFile = Static<typeof BrandScreeningFile>;
export type BandFile = Static<typeof ScoreBandFile>;
