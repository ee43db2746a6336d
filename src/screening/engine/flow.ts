import type { AnswerProblem, ScreeningAnswers, ScreeningQuestion } from '../model.js';
import {
  CONDITIONS_ID,
  TRAVEL_MODE_ID,
  codeOf,
  followUpId,
  followUpOf,
  gateId,
  namesOf,
  single,
  textIn,
  type Declarable,
  type EngineData,
  type FlowQuestion,
} from './data.js';

/**
 * The order of questions (model.ts): the gate questions; when one is answered YES, the travel mode
 * and the declared conditions; then each declared condition's follow-ups, in catalogue order, a
 * follow-up with `askedWhen` only once the earlier answer it depends on was given so.
 */

export function gateQuestions(data: EngineData): FlowQuestion[] {
  return data.rules.gate.map((g) => ({
    id: gateId(g.id),
    kind: 'GATE',
    text: g.text,
    choices: g.choices,
    multiple: false,
  }));
}

function conditionsQuestion(data: EngineData): FlowQuestion {
  const choices = data.declarable.map((d) => ({ code: codeOf(d), weight: 1, text: namesOf(d) }));
  return { id: CONDITIONS_ID, kind: 'CONDITIONS', text: data.rules.conditionsText, choices, multiple: true };
}

/** Whether any gate question was answered YES: screening is needed. */
export function screeningNeeded(data: EngineData, answers: ScreeningAnswers): boolean {
  return data.rules.gate.some((g) => single(answers, gateId(g.id)) === 'YES');
}

/** The declared conditions the catalogue knows, in catalogue order (unknown codes are checkAnswers' business). */
export function declared(data: EngineData, answers: ScreeningAnswers): Declarable[] {
  const codes = new Set(answers[CONDITIONS_ID] ?? []);
  return data.declarable.filter((d) => codes.has(codeOf(d)));
}

/** Every question the answers so far lead to, answered or not, in order. */
export function askedQuestions(data: EngineData, answers: ScreeningAnswers): FlowQuestion[] {
  const asked = gateQuestions(data);
  if (!screeningNeeded(data, answers)) return asked;
  const travelMode = data.rules.travelMode;
  asked.push(
    { id: TRAVEL_MODE_ID, kind: 'TRAVEL_MODE', text: travelMode.text, choices: travelMode.choices, multiple: false },
    conditionsQuestion(data),
  );
  for (const d of declared(data, answers)) {
    if (d.kind !== 'RULE') continue;
    for (const question of d.rule.questions) {
      const when = question.askedWhen;
      if (when && !when.choices.includes(single(answers, followUpId(d.rule.code, when.question)) ?? '')) continue;
      asked.push(followUpOf(d.rule.code, question));
    }
  }
  return asked;
}

/** The unanswered questions to ask now: the unanswered gate questions first, then the rest. */
export function unanswered(data: EngineData, answers: ScreeningAnswers): FlowQuestion[] {
  const open = askedQuestions(data, answers).filter((q) => !Object.hasOwn(answers, q.id));
  const gate = open.filter((q) => q.kind === 'GATE');
  return gate.length > 0 ? gate : open;
}

/** Every question id a catalogue version may ask (to tell an unknown question from one not asked). */
export function knownQuestionIds(data: EngineData): Set<string> {
  const ids = new Set([...data.rules.gate.map((g) => gateId(g.id)), TRAVEL_MODE_ID, CONDITIONS_ID]);
  for (const c of data.rules.conditions) for (const q of c.questions) ids.add(followUpOf(c.code, q).id);
  return ids;
}

/** Every problem of the answers, one per question at most; never echoes an answered code. */
export function answerProblems(
  data: EngineData,
  known: ReadonlySet<string>,
  answers: ScreeningAnswers,
): AnswerProblem[] {
  const asked = new Map(askedQuestions(data, answers).map((q) => [q.id, q]));
  const problems: AnswerProblem[] = [];
  for (const [questionId, codes] of Object.entries(answers)) {
    const problem = (code: AnswerProblem['code'], message: string) => problems.push({ questionId, code, message });
    const question = asked.get(questionId);
    if (!question) {
      if (known.has(questionId)) problem('NOT_ASKED', 'This question is not asked for the answers given.');
      else problem('UNKNOWN_QUESTION', 'No such question.');
      continue;
    }
    const choices = new Set(question.choices.map((c) => c.code));
    // The API's schema sends lists of strings; a caller that did not gets a problem, not a crash.
    const raw: unknown = codes;
    if (!Array.isArray(raw) || raw.some((code) => typeof code !== 'string'))
      problem('UNKNOWN_CHOICE', 'An answer is not one of the choices.');
    else if (!question.multiple && codes.length === 0) problem('NO_CHOICE', 'Choose one answer.');
    else if (!question.multiple && codes.length > 1) problem('ONE_CHOICE_ONLY', 'Choose one answer only.');
    else if (codes.some((code) => !choices.has(code)))
      problem('UNKNOWN_CHOICE', 'An answer is not one of the choices.');
    else if (new Set(codes).size !== codes.length) problem('ONE_CHOICE_ONLY', 'Each condition may be declared once.');
  }
  return problems;
}

/** A question in the trip's language. */
export function present(question: FlowQuestion, language: string): ScreeningQuestion {
  return {
    id: question.id,
    kind: question.kind,
    ...(question.conditionCode ? { conditionCode: question.conditionCode } : {}),
    text: textIn(question.text, language),
    choices: question.choices.map((c) => ({ code: c.code, text: textIn(c.text, language) })),
    multiple: question.multiple,
  };
}
