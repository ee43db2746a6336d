import type {
  AnswerProblem,
  ConditionAssessment,
  ConditionOutcome,
  ScreeningAnswers,
  ScreeningEngine,
  ScreeningQuestion,
  ScreeningTrip,
  TravellerAssessment,
} from '../../src/screening/model.js';
import { TEST_CONDITION_CODES, TRAVEL_MODES } from '../../src/screening/model.js';

/**
 * A TEST engine for src/screening/model.ts (not the real catalogue engine): the documented question
 * order (gates `gate.a`, `gate.b` → `travelMode`, `conditions` → follow-ups), the fixed TEST_*
 * conditions with their documented outcomes, and one ordinary condition (`ASTHMA`) with one follow-up.
 */
const YES_NO = [
  { code: 'YES', text: 'Yes' },
  { code: 'NO', text: 'No' },
];
const GATES = ['gate.a', 'gate.b'];
const ORDINARY = { code: 'ASTHMA', name: 'Asthma' };
const CONDITIONS = [...TEST_CONDITION_CODES.map((code) => ({ code, name: `Test ${code}` })), ORDINARY];
const FOLLOW_UP = 'ASTHMA.attacks';

function questionsOf(answers: ScreeningAnswers): ScreeningQuestion[][] {
  const stages: ScreeningQuestion[][] = [
    GATES.map((id) => ({ id, kind: 'GATE', text: `Gate question ${id}?`, choices: YES_NO, multiple: false })),
  ];
  if (!GATES.some((g) => answers[g]?.[0] === 'YES')) return stages;
  stages.push([
    {
      id: 'travelMode',
      kind: 'TRAVEL_MODE',
      text: 'How do you travel?',
      choices: TRAVEL_MODES.map((m) => ({ code: m, text: m })),
      multiple: false,
    },
    {
      id: 'conditions',
      kind: 'CONDITIONS',
      text: 'Which conditions?',
      choices: CONDITIONS.map((c) => ({ code: c.code, text: c.name })),
      multiple: true,
    },
  ]);
  if (answers.conditions?.includes(ORDINARY.code))
    stages.push([
      {
        id: FOLLOW_UP,
        kind: 'FOLLOW_UP',
        conditionCode: ORDINARY.code,
        text: 'Attacks in the last year?',
        choices: YES_NO,
        multiple: false,
      },
    ]);
  return stages;
}

const ASKABLE = (answers: ScreeningAnswers) => questionsOf(answers).flat();

const OUTCOMES: Record<string, ConditionOutcome> = {
  TEST_AUTO_COVERED: 'AUTO_COVERED',
  TEST_COVERED: 'COVERED',
  TEST_EXCLUDED: 'EXCLUDED',
  TEST_DECLINED: 'DECLINED',
  TEST_DECLINE_TRAVELLER: 'DECLINED',
  TEST_REFERRED: 'REFERRED',
};

export const screeningTestEngine: ScreeningEngine = {
  isOffered: (_brand, planCode) => planCode !== 'BASIC',
  checkAnswers(_trip: ScreeningTrip, answers: ScreeningAnswers): AnswerProblem[] {
    const known = new Set(['travelMode', 'conditions', FOLLOW_UP, ...GATES]);
    const askable = new Map(ASKABLE(answers).map((q) => [q.id, q]));
    const problems: AnswerProblem[] = [];
    for (const [questionId, codes] of Object.entries(answers)) {
      const q = askable.get(questionId);
      const problem = (code: AnswerProblem['code']) =>
        problems.push({ questionId, code, message: `The answer to ${questionId} is not acceptable (${code}).` });
      if (!known.has(questionId)) problem('UNKNOWN_QUESTION');
      else if (!q) problem('NOT_ASKED');
      else if (codes.length === 0) problem('NO_CHOICE');
      else if (!q.multiple && codes.length > 1) problem('ONE_CHOICE_ONLY');
      else if (codes.some((c) => !q.choices.some((choice) => choice.code === c))) problem('UNKNOWN_CHOICE');
    }
    return problems;
  },
  nextQuestions(_trip, answers) {
    for (const stage of questionsOf(answers)) {
      const open = stage.filter((q) => answers[q.id] === undefined);
      if (open.length > 0) return open;
    }
    return [];
  },
  assess(trip, answers): TravellerAssessment {
    if (!GATES.some((g) => answers[g]?.[0] === 'YES'))
      return {
        outcome: 'NO_SCREENING_NEEDED',
        score: 1,
        conditions: [],
        medicalPremiumMinor: 0,
        excessMinor: 0,
        signposting: false,
      };
    const conditions: ConditionAssessment[] = (answers.conditions ?? []).map((code) => {
      const outcome = OUTCOMES[code] ?? (answers[FOLLOW_UP]?.[0] === 'YES' ? 'COVERED' : 'AUTO_COVERED');
      const covered = code === 'TEST_COVERED';
      return {
        conditionCode: code,
        name: CONDITIONS.find((c) => c.code === code)?.name ?? code,
        score: covered ? 1.5 : 1,
        outcome,
        medicalPremiumMinor: covered ? 6000 : 0,
        excessMinor: covered ? 10000 : 0,
      };
    });
    const has = (o: ConditionOutcome) => conditions.some((c) => c.outcome === o);
    const outcome = answers.conditions?.includes('TEST_DECLINE_TRAVELLER')
      ? 'DECLINED'
      : has('REFERRED')
        ? 'REFERRED'
        : has('EXCLUDED') || has('DECLINED')
          ? 'COVERED_WITH_EXCLUSIONS'
          : 'COVERED';
    const premium = conditions.reduce((sum, c) => sum + c.medicalPremiumMinor, 0);
    return {
      outcome,
      score: conditions.reduce((p, c) => p * c.score, 1),
      conditions,
      medicalPremiumMinor: premium,
      excessMinor: Math.max(0, ...conditions.map((c) => c.excessMinor)),
      signposting: trip.currencyCode === 'GBP' && (has('DECLINED') || has('EXCLUDED') || premium >= 10000),
    };
  },
  findConditions: (_trip, query) =>
    CONDITIONS.filter((c) => c.name.toLowerCase().includes(query.toLowerCase())).map((c) => ({ ...c })),
};
