import { Conflict, InvalidInput, NotFound, Unprocessable } from '../kernel/errors.js';
import type { AnswerProblem } from './model.js';

/** Not a traveller (`policyHolders[].guid`) of the quote. */
export class TravellerNotFound extends NotFound {
  constructor() {
    super('TRAVELLER_NOT_FOUND', 'The quote has no traveller with this guid.', { property: 'guid' });
  }
}

export class ScreeningNotStarted extends NotFound {
  constructor() {
    super('SCREENING_NOT_FOUND', 'No screening was started for this traveller.', { property: 'guid' });
  }
}

export class PlanNotChosen extends Unprocessable {
  constructor() {
    super('PLAN_NOT_CHOSEN', 'Choose a plan (`input.planId`) before screening.', { property: 'input.planId' });
  }
}

export class ScreeningNotOffered extends Unprocessable {
  constructor() {
    super('SCREENING_NOT_OFFERED', 'The chosen plan offers no medical screening.', { property: 'input.planId' });
  }
}

export class NotOptedInForScreening extends Unprocessable {
  constructor() {
    super(
      'NOT_OPTED_IN_FOR_SCREENING',
      'The traveller is not opted in for screening (`travelClearOption.isOptedInForScreening`).',
      { property: 'travelClearOption.isOptedInForScreening' },
    );
  }
}

/** Answers can change only while IN_PROGRESS; a STALE screening must be started again. */
export class ScreeningNotInProgress extends Conflict {
  constructor(status: string) {
    super('SCREENING_NOT_IN_PROGRESS', `The screening is ${status}; start it again to change the answers.`, {
      property: 'guid',
    });
  }
}

export class ScreeningIncomplete extends Conflict {
  constructor() {
    super('SCREENING_INCOMPLETE', 'Questions remain unanswered; answer them before completing.', { property: 'guid' });
  }
}

export class ScreeningChangedConcurrently extends Conflict {
  constructor() {
    super('SCREENING_CHANGED', 'The screening was changed by another request; read it again and retry.', {
      property: 'guid',
    });
  }
}

/**
 * An answer the engine refuses, named by its place in the request (`answers[i].questionId` or
 * `.choiceCodes`; `answers` for one stored earlier), never by its question id: a follow-up's id
 * (`<conditionCode>.<id>`) names the condition. Nothing answered is echoed.
 */
export class AnswerRefused extends InvalidInput {
  constructor(problem: AnswerProblem, index: number | undefined) {
    const field = problem.code === 'UNKNOWN_QUESTION' || problem.code === 'NOT_ASKED' ? 'questionId' : 'choiceCodes';
    super(`ANSWER_${problem.code}`, problem.message, {
      property: index === undefined ? 'answers' : `answers[${String(index)}].${field}`,
    });
  }
}
