import type { Notification } from '../kernel/notifications/notification.js';
import type { QuoteInput, QuoteStage } from './schemas.js';
import { problem } from '../kernel/notifications/problems.js';
import type { QuoteFacts } from './validation/validate-quote.js';
import type { TravellerScreening } from '../screening/model.js';
import { screeningGaps } from './screening-rules.js';

/** The purchase path in order (spec §3). A quote moves forward only when each stage's needs are met. */
export const STAGES: readonly QuoteStage[] = [
  'INITIAL',
  'BASEQUOTE',
  'OPTIONS',
  'DETAILS',
  'MEDICAL_SCREENING',
  'PAYMENT',
];

const rank = (stage: QuoteStage): number => STAGES.indexOf(stage);

type Requirement = (
  input: QuoteInput,
  facts: QuoteFacts,
  screenings: readonly TravellerScreening[],
  screeningOffered: boolean,
) => string[];

const blank = (value: string | undefined): boolean => value === undefined || value.trim() === '';
const holders = (input: QuoteInput) =>
  (input.policyHolders ?? []).map((holder, index) => ({ holder, path: `input.policyHolders[${index}]` }));

/** What each stage after BASEQUOTE adds to the one before: the input alone decides (no catalogue facts). */
const INPUT_REQUIREMENTS: Record<
  'OPTIONS' | 'DETAILS' | 'MEDICAL_SCREENING' | 'PAYMENT',
  (input: QuoteInput, screenings: readonly TravellerScreening[], screeningOffered: boolean) => string[]
> = {
  OPTIONS: (input) => ((input.planId ?? 0) === 0 ? ['input.planId'] : []),
  DETAILS: (input) => {
    const missing: string[] = [];
    for (const { holder, path } of holders(input)) {
      if (blank(holder.firstName)) missing.push(`${path}.firstName`);
      if (blank(holder.lastName)) missing.push(`${path}.lastName`);
      if (blank(holder.dateOfBirth)) missing.push(`${path}.dateOfBirth`);
    }
    const primary = holders(input).find(({ holder }) => holder.isPrimary === true);
    if (!primary) missing.push('input.policyHolders.isPrimary');
    else {
      // No e-mail address is needed: the policy is issued and the partner told the documents
      // cannot be e-mailed (NO_EMAIL_ADDRESS, purchases/service.ts).
      if (blank(primary.holder.phoneNumber)) missing.push(`${primary.path}.phoneNumber`);
    }
    if (blank(input.homeAddress?.addressLine1)) missing.push('input.homeAddress.addressLine1');
    if (blank(input.homeAddress?.postalCode)) missing.push('input.homeAddress.postalCode');
    return missing;
  },
  // Every traveller opted in for screening (or cover) must have a COMPLETED, not STALE, screening.
  MEDICAL_SCREENING: (input, screenings, screeningOffered) => [
    ...holders(input)
      .filter(({ holder }) => holder.isDependent !== true && blank(holder.travelClearOption?.optionType))
      .map(({ path }) => `${path}.travelClearOption.optionType`),
    ...screeningGaps(input, screenings, screeningOffered).map((gap) => gap.property),
  ],
  PAYMENT: (input) => {
    const declarations = input.regulatoryDeclarations ?? [];
    if (declarations.length === 0) return ['input.regulatoryDeclarations'];
    return declarations.flatMap((d, i) =>
      d.hasAgreed === true ? [] : [`input.regulatoryDeclarations[${i}].hasAgreed`],
    );
  },
};

/** What each stage adds to the one before, as the JSON paths that are missing. */
const REQUIREMENTS: Record<QuoteStage, Requirement> = {
  INITIAL: () => [],
  BASEQUOTE: (input, facts) => [
    ...(facts.homeCountryCode === undefined ? ['input.homeAddress.countryCode'] : []),
    ...((input.destinationCountryCodes ?? []).length === 0 ? ['input.destinationCountryCodes'] : []),
    ...(blank(input.departureDate) ? ['input.departureDate'] : []),
    ...(blank(input.returnDate) ? ['input.returnDate'] : []),
    ...((input.policyHolders ?? []).length === 0 ? ['input.policyHolders'] : []),
    ...holders(input)
      .filter(({ holder }) => holder.age === undefined && blank(holder.dateOfBirth))
      .map(({ path }) => `${path}.age`),
  ],
  OPTIONS: (input, _facts, screenings, offered) => INPUT_REQUIREMENTS.OPTIONS(input, screenings, offered),
  DETAILS: (input, _facts, screenings, offered) => INPUT_REQUIREMENTS.DETAILS(input, screenings, offered),
  MEDICAL_SCREENING: (input, _facts, screenings, offered) =>
    INPUT_REQUIREMENTS.MEDICAL_SCREENING(input, screenings, offered),
  PAYMENT: (input, _facts, screenings, offered) => INPUT_REQUIREMENTS.PAYMENT(input, screenings, offered),
};

export interface StageRequest {
  /** The stored stage; undefined for a new quote. */
  current: QuoteStage | undefined;
  /** The stage the body asks for; undefined keeps the current one. */
  requested: QuoteStage | undefined;
  input: QuoteInput;
  facts: QuoteFacts;
  /** The input has validation errors (warnings do not count). */
  hasErrors: boolean;
  /** The travellers' medical screenings (none for a quote not stored yet). */
  screenings?: readonly TravellerScreening[];
  /** False when the chosen plan offers no medical screening (absent: it does). */
  screeningOffered?: boolean;
}

/** The highest stage ≤ `target` whose requirements, and those of every stage before it, are met. */
function reachable(
  target: QuoteStage,
  input: QuoteInput,
  facts: QuoteFacts,
  screenings: readonly TravellerScreening[],
  screeningOffered: boolean,
): { stage: QuoteStage; missing: string[]; blockedAt?: QuoteStage } {
  let reached: QuoteStage = 'INITIAL';
  for (const stage of STAGES.slice(1, rank(target) + 1)) {
    const missing = REQUIREMENTS[stage](input, facts, screenings, screeningOffered);
    if (missing.length > 0) return { stage: reached, missing, blockedAt: stage };
    reached = stage;
  }
  return { stage: reached, missing: [] };
}

/**
 * Decides the quote's stage. Refusals are Notifications (the quote answers 200 with
 * `isValid: false` and keeps the stage it could reach), never an HTTP error.
 */
export function resolveStage({
  current,
  requested,
  input,
  facts,
  hasErrors,
  screenings = [],
  screeningOffered = true,
}: StageRequest): {
  stage: QuoteStage;
  notifications: Notification[];
} {
  const from = current ?? 'INITIAL';
  const notifications: Notification[] = [];
  let target = requested ?? from;
  if (requested !== undefined && rank(requested) < rank(from) && requested === 'INITIAL') {
    notifications.push(
      problem(
        'STAGE_BACKWARD_NOT_ALLOWED',
        'A quote that has been priced cannot go back to INITIAL; go back to BASEQUOTE instead.',
        'stage',
        requested,
        { current: from },
      ),
    );
    target = from;
  }
  // A quote with errors stays where it is: it cannot move forward.
  if (hasErrors && rank(target) > rank(from)) {
    notifications.push(
      problem(
        'STAGE_NOT_REACHED',
        `The quote has validation errors, so it cannot move to ${target}.`,
        'stage',
        target,
        { requested: target, reached: from },
      ),
    );
    return { stage: from, notifications };
  }
  // A quote that can be priced is at least BASEQUOTE even when the body names no stage.
  if (requested === undefined && from === 'INITIAL' && !hasErrors) target = 'BASEQUOTE';
  const result = reachable(target, input, facts, screenings, screeningOffered);
  const gaps = new Map(screeningGaps(input, screenings, screeningOffered).map((gap) => [gap.property, gap]));
  if (
    result.blockedAt !== undefined &&
    !(requested === undefined && from === 'INITIAL' && result.stage === 'INITIAL')
  ) {
    const blockedAt = result.blockedAt;
    for (const property of result.missing) {
      const gap = gaps.get(property);
      if (gap) {
        notifications.push(problem(gap.code, gap.message, property, undefined, { stage: blockedAt }));
        continue;
      }
      notifications.push(
        problem(
          'STAGE_REQUIREMENT_MISSING',
          `${property} is needed to reach stage ${blockedAt}.`,
          property,
          undefined,
          { stage: blockedAt },
        ),
      );
    }
    notifications.push(
      problem(
        'STAGE_NOT_REACHED',
        `The quote cannot move to ${target} yet; it stays at ${result.stage}.`,
        'stage',
        target,
        { requested: target, reached: result.stage },
      ),
    );
  }
  return { stage: result.stage, notifications };
}

export function stageRank(stage: QuoteStage): number {
  return rank(stage);
}

/** How far a stored quote's data carries it; `missing` (and `blockedAt`) say what stops it going further. */
export interface StageReach {
  readonly stage: QuoteStage;
  readonly missing: string[];
  readonly blockedAt?: QuoteStage;
}

/**
 * The highest stage `input` reaches for a quote stored at `stored`, judged by the data and not by
 * the stage a client last asked for (a partner may send holder details only at purchase and never
 * PUT a stage). Stages up to `stored` were checked when it was stored; the later ones depend on
 * the input alone. A quote before BASEQUOTE was never priced and goes no further here.
 */
export function dataReaches(
  stored: QuoteStage,
  input: QuoteInput,
  screenings: readonly TravellerScreening[] = [],
): StageReach {
  if (rank(stored) < rank('BASEQUOTE')) return { stage: stored, missing: [] };
  let reached = stored;
  for (const stage of STAGES.slice(rank(stored) + 1)) {
    // A plan without screening is the purchase's own check to name (screeningPurchaseProblems).
    const missing = INPUT_REQUIREMENTS[stage as keyof typeof INPUT_REQUIREMENTS](input, screenings, true);
    if (missing.length > 0) return { stage: reached, missing, blockedAt: stage };
    reached = stage;
  }
  return { stage: reached, missing: [] };
}
