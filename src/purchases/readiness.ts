import type { PlanVersion, Term } from '../catalogue/model.js';
import type { Notification } from '../kernel/notifications/notification.js';
import type { PolicyHolderInput, QuoteInput, QuotePriceSummary, QuoteStage } from '../quotes/schemas.js';
import { dataReaches, stageRank } from '../quotes/stages.js';
import type { StoredQuote } from '../quotes/stored-quote.js';
import { problem } from '../kernel/notifications/problems.js';
import type { PurchaseRequest } from './schemas.js';
import type { TravellerScreening } from '../screening/model.js';
import { screeningPurchaseProblems } from '../quotes/screening-rules.js';

/**
 * Whether a stored quote can be paid for, and the input it is bought with (pure rules, no I/O).
 * Problems are Notifications: the purchase answers 200 with `isValid: false` and charges nothing.
 */

/** The stage from which a quote has every detail a policy needs (spec §3, docs/api-contract.md "Quotes"). */
export const READY_STAGE = 'DETAILS';
/** Spec §3: the policy action a purchase term applies to (1 = Purchase). */
const PURCHASE_ACTION = 1;

export interface ReadinessFacts {
  /** The plan version whose id the quote chose, if the catalogue knows it. */
  readonly plan: PlanVersion | undefined;
  /** Today in the brand's time zone (YYYY-MM-DD). */
  readonly today: string;
  /** The partner's groups (terms reserved to groups apply only to their members). */
  readonly partnerGroupIds: readonly number[];
  /** The travellers' medical screenings of the quote. */
  readonly screenings: readonly TravellerScreening[];
  /** False when the chosen plan offers no medical screening (absent: it does). */
  readonly screeningOffered?: boolean;
}

export interface Readiness {
  readonly notifications: Notification[];
  /** The stored input completed with the body's holder details and declarations. */
  readonly input: QuoteInput;
  /** The chosen plan's price (minor units), when there is one. */
  readonly price: QuotePriceSummary | undefined;
  /** The stage `input` reaches (never behind the stored one): the claim stores it with the input. */
  readonly stage: QuoteStage;
}

const filled = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** Only name and contact fields merge: anything that was priced (ages, dates of birth) stays as priced. */
function mergeHolders(
  stored: PolicyHolderInput[],
  sent: NonNullable<NonNullable<PurchaseRequest['quote']>['input']>['policyHolders'],
  notifications: Notification[],
): PolicyHolderInput[] {
  if (!sent) return stored;
  if (sent.length > stored.length) {
    notifications.push(
      problem(
        'TOO_MANY_POLICY_HOLDERS',
        `The quote has ${stored.length} policy holders; the purchase may only complete them, not add more.`,
        'quote.input.policyHolders',
        undefined,
        { max: stored.length },
      ),
    );
  }
  return stored.map((holder, i) => {
    const update = sent[i];
    if (!update) return holder;
    if (filled(update.dateOfBirth) && update.dateOfBirth !== holder.dateOfBirth) {
      notifications.push(
        problem(
          'DATE_OF_BIRTH_CHANGED',
          'A date of birth differs from the priced one; update the quote (PUT) to re-price it first.',
          `quote.input.policyHolders[${i}].dateOfBirth`,
          update.dateOfBirth,
        ),
      );
    }
    return {
      ...holder,
      ...(filled(update.firstName) ? { firstName: update.firstName } : {}),
      ...(filled(update.lastName) ? { lastName: update.lastName } : {}),
      ...(filled(update.phoneNumber) ? { phoneNumber: update.phoneNumber } : {}),
      ...(filled(update.emailAddress) ? { emailAddress: update.emailAddress } : {}),
      ...(filled(update.residentIdentifier) ? { residentIdentifier: update.residentIdentifier } : {}),
    };
  });
}

/** Purchase terms of the plan version that apply to this partner, home and trip. */
export function purchaseTerms(plan: PlanVersion, input: QuoteInput, partnerGroupIds: readonly number[]): Term[] {
  const home = input.homeAddress?.countryCode?.toUpperCase();
  const province = input.homeAddress?.provinceCode?.toUpperCase();
  const destinations = (input.destinationCountryCodes ?? []).map((c) => c.toUpperCase());
  return plan.terms.filter(
    (t) =>
      t.policyActionTypeId === PURCHASE_ACTION &&
      (!t.partnerGroupIds || t.partnerGroupIds.some((id) => partnerGroupIds.includes(id))) &&
      (!t.countryCode || t.countryCode === home) &&
      (!t.provinceCode || t.provinceCode.toUpperCase() === province) &&
      (!t.destinationCountryCodes || t.destinationCountryCodes.some((c) => destinations.includes(c))),
  );
}

function declarationProblems(terms: readonly Term[], input: QuoteInput): Notification[] {
  const declarations = input.regulatoryDeclarations ?? [];
  return terms.flatMap((term) => {
    const index = declarations.findIndex((d) => d.termConditionId === term.termConditionId);
    if (index >= 0 && declarations[index]?.hasAgreed === true) return [];
    const property =
      index >= 0 ? `quote.input.regulatoryDeclarations[${index}].hasAgreed` : 'quote.input.regulatoryDeclarations';
    return [
      problem(
        'DECLARATION_NOT_AGREED',
        `Purchase term ${term.termConditionId} must be agreed (hasAgreed: true) before buying.`,
        property,
        undefined,
        { termConditionId: term.termConditionId },
      ),
    ];
  });
}

/**
 * Readiness is judged by the data (the stored input completed by the body), not by the stored
 * stage: a quote left at BASEQUOTE whose holders the body completes can be bought. What is
 * still missing is named, field by field, as a PUT naming a stage would name it.
 */
function notReady(reach: ReturnType<typeof dataReaches>): Notification[] {
  const blockedAt = reach.blockedAt ?? READY_STAGE;
  return [
    problem(
      'QUOTE_NOT_READY',
      `The quote must reach stage ${READY_STAGE} (holder details) before it can be bought; its data reaches ${reach.stage}.`,
      'quote.stage',
      reach.stage,
      { stage: reach.stage, required: READY_STAGE },
    ),
    ...reach.missing.map((path) =>
      problem(
        'STAGE_REQUIREMENT_MISSING',
        `quote.${path} is needed to reach stage ${blockedAt}.`,
        `quote.${path}`,
        undefined,
        { stage: blockedAt },
      ),
    ),
  ];
}

/** Checks a stored quote against the purchase rules (docs/api-contract.md, "Purchase"). */
export function assessReadiness(quote: StoredQuote, body: PurchaseRequest, facts: ReadinessFacts): Readiness {
  const notifications: Notification[] = [];
  const sent = body.quote.input;
  const input: QuoteInput = {
    ...quote.input,
    policyHolders: mergeHolders(quote.input.policyHolders ?? [], sent?.policyHolders, notifications),
    regulatoryDeclarations: sent?.regulatoryDeclarations ?? quote.input.regulatoryDeclarations,
  };
  if (quote.validation.isValid !== true) {
    notifications.push(
      problem(
        'QUOTE_NOT_VALID',
        'The quote has validation errors; correct it (PUT) before buying.',
        'quote.validation',
      ),
    );
  }
  const planId = quote.input.planId ?? 0;
  const price = quote.pricing.prices.find((p) => p.planId === planId && planId !== 0);
  if (quote.pricing.prices.length === 0) {
    notifications.push(problem('QUOTE_NOT_PRICED', 'The quote has no prices; it cannot be bought.', 'quote.prices'));
  } else if (!price) {
    notifications.push(
      problem(
        'PLAN_NOT_CHOSEN',
        'Choose one of the priced plans (input.planId) before buying.',
        'quote.input.planId',
        planId === 0 ? undefined : planId,
      ),
    );
  }
  if (
    price &&
    (!facts.plan ||
      facts.plan.effectiveFromDate > facts.today ||
      (facts.plan.effectiveToDate !== undefined && facts.plan.effectiveToDate < facts.today))
  ) {
    notifications.push(
      problem(
        'PLAN_NOT_SOLD',
        'The chosen plan is no longer sold; update the quote (PUT) to re-price it.',
        'quote.input.planId',
        planId,
        { date: facts.today },
      ),
    );
  }
  const reach = dataReaches(quote.stage, input, facts.screenings);
  if (stageRank(reach.stage) < stageRank(READY_STAGE)) notifications.push(...notReady(reach));
  // Screening refusals come before any money moves (docs/api-contract.md, "Medical screening").
  notifications.push(...screeningPurchaseProblems(input, facts.screenings, facts.screeningOffered));
  if (facts.plan)
    notifications.push(...declarationProblems(purchaseTerms(facts.plan, input, facts.partnerGroupIds), input));
  return { notifications, input, price, stage: reach.stage };
}
