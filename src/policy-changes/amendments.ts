import type { Actor } from '../auth/principal.js';
import type { BrandCode } from '../kernel/brands.js';
import type { PlanVersion } from '../catalogue/model.js';
import { brandOf } from '../catalogue/service.js';
import { servicingRulesOf } from '../catalogue/servicing.js';
import { dateIn } from '../kernel/calendar/zones.js';
import type { Notification } from '../kernel/notifications/notification.js';
import { isBlocking, problem } from '../kernel/notifications/problems.js';
import { buildPolicyRequest } from '../purchases/policy-request.js';
import { evaluateQuote } from '../quotes/evaluation.js';
import { findQuote } from '../quotes/repository.js';
import type { QuoteInput } from '../quotes/schemas.js';
import type { ChangeDeps } from './deps.js';
import type { AmendmentPricing, PreviewResult } from './model.js';
import { difference, partsOf, withFee } from './parts.js';
import { changeStart, paidSoFar } from './policy-facts.js';
import { changeFor } from './preview-change.js';
import { judgeAmendment, openAmendmentReferral } from './referrals.js';
import { insertChange, latestAmendedInput } from './repository.js';
import { AMENDMENT_FEE, amendmentProblems } from './rules.js';
import { screeningChangeProblems } from './screening-changes.js';

/**
 * An amendment's preview (docs/api-contract.md, "Amendments"): the policy's new trip, travellers
 * and options, validated and priced exactly as a quote at the rates sold today, checked against
 * what the brand's servicing rules let change, and compared part by part with what the policy has
 * paid so far. A valid preview is recorded (it may be confirmed until `expiresAt`); an invalid
 * one is answered with its Notifications and not kept.
 */
export interface AmendmentCall {
  readonly actor: Actor;
  readonly brandCode: BrandCode;
  readonly policyNumber: string;
  readonly input: QuoteInput;
  /** The end customer's client: the body's `clientInfo`, else the calling connection. */
  readonly client: { ipAddress?: string; userAgent?: string };
}

/** The version of the policy's plan sold on `today` (the policy keeps its plan; its rates are today's). */
function planSoldOn(plans: readonly PlanVersion[], code: string, today: string): PlanVersion | undefined {
  return plans.find(
    (p) =>
      p.code === code &&
      p.effectiveFromDate <= today &&
      (p.effectiveToDate === undefined || today <= p.effectiveToDate),
  );
}

/** Every traveller a policy records needs a name and a date of birth (or age): a purchase asks the same. */
function holderProblems(input: QuoteInput): Notification[] {
  return (input.policyHolders ?? []).flatMap((holder, i) =>
    (['firstName', 'lastName'] as const)
      .filter((field) => !holder[field]?.trim())
      .map((field) =>
        problem(
          'FIELD_REQUIRED',
          `${field} is required for every traveller of a policy.`,
          `input.policyHolders[${i}].${field}`,
        ),
      ),
  );
}

export async function previewAmendment(deps: ChangeDeps, call: AmendmentCall): Promise<PreviewResult> {
  const { actor, brandCode } = call;
  const lookup = { policyNumber: call.policyNumber, brandCode, partnerId: actor.partnerId };
  const { policy, latest, sequenceNumber, now, zone, today } = await changeStart(deps.db, lookup, deps.clock());
  const departed = today >= latest.departureDate;
  const quote = await findQuote(deps.db, policy.quoteId, brandCode, actor.partnerId);
  if (!quote) throw new Error(`policy ${policy.policyNumber}: its quote ${policy.quoteId} is missing`);
  const current = (await latestAmendedInput(deps.db, policy.id)) ?? quote.input;
  // Cover that has ended is not extended back over the gap: after departure only a running cover changes.
  if (today > latest.coverEndDate) {
    const field = current.quoteType === 'MULTITRIP' ? 'coverEndDate' : 'returnDate';
    const { coverEndDate } = latest;
    const ended = problem(
      'COVER_ENDED',
      'The cover has ended: the policy can no longer be amended.',
      `input.${field}`,
      call.input[field],
      { coverEndDate },
    );
    return { sequenceNumber, currency: policy.currency.code, notifications: [ended] };
  }

  const snapshot = await deps.catalogue.snapshot();
  const brand = brandOf(snapshot, brandCode);
  // A trip under way is judged as at the policy's issue date: its departure is in the past by now.
  const judgedOn = departed ? dateIn(new Date(policy.audit.createdAt), zone) : today;
  const plan = planSoldOn(brand.plans, policy.plan.code, today);
  const notifications: Notification[] = [];
  if (!plan) {
    notifications.push(
      problem('PLAN_NOT_SOLD', 'The policy’s plan is no longer sold; it cannot be repriced.', 'input.planId'),
    );
    return { sequenceNumber, currency: policy.currency.code, notifications };
  }
  const evaluation = await evaluateQuote(deps.ports, {
    brandCode,
    partnerCode: actor.partnerCode,
    body: { input: { ...call.input, planId: plan.planId } },
    now,
    ...(departed ? { quoteDate: judgedOn } : {}),
    // The travellers' screenings keep their medical premiums in the amended price.
    quoteId: policy.quoteId,
    screeningsAsSold: true,
  });
  const screenings = await deps.ports.screenings.ofQuote(policy.quoteId);
  const next = evaluation.input;
  const rules = servicingRulesOf(brand, policy.plan.code);
  // The plan is compared by its code: the version sold today may have another id; another plan's id is a change.
  const sent = call.input.planId;
  const samePlan =
    sent === undefined || sent === 0 || brand.plans.some((p) => p.planId === sent && p.code === policy.plan.code);
  notifications.push(
    ...(evaluation.validation.errors ?? []).filter(isBlocking),
    ...amendmentProblems(rules, { departed, current, next: { ...next, planId: samePlan ? current.planId : sent } }),
    ...holderProblems(next),
    ...screeningChangeProblems(
      current,
      next,
      { current: policy.plan.code, next: samePlan ? policy.plan.code : String(sent) },
      screenings,
    ),
  );
  const price = evaluation.pricing.prices.find((p) => p.planId === plan.planId);
  if (!price) notifications.push(problem('NOT_PRICED', 'The amended policy could not be priced.', 'input'));
  if (notifications.length > 0 || !price) return { sequenceNumber, currency: policy.currency.code, notifications };

  const request = buildPolicyRequest({
    quote: { ...quote, input: next },
    input: next,
    price,
    plan,
    brand,
    snapshot,
    createdByUserId: actor.userId,
    client: call.client,
    today: judgedOn,
  });
  const { premium, discount, taxes, donation } = request.amounts;
  const repriced = partsOf({ premium, discount, taxes, donation, fees: [] });
  const paid = paidSoFar(policy);
  const amounts = withFee(difference(repriced, paid), { name: AMENDMENT_FEE, amount: rules.amendment.feeMinor });
  const pricing: AmendmentPricing = {
    kind: 'AMENDMENT',
    input: next,
    priceResults: evaluation.pricing.priceResults.filter((r) => r.planId === plan.planId),
    prices: [price],
    paid,
    repriced,
    difference: amounts,
  };
  const { homeAddress, travellers, dependents, destinations, departureDate, coverEndDate } = request;
  const { options, specifiedItems, adventure, excessMinor, client } = request;
  // The referral rules judge the amended input as a quote's (docs/api-contract.md, "Referrals").
  const judged = await judgeAmendment(deps, {
    brandCode,
    partnerId: actor.partnerId,
    policy,
    input: next,
    screenings,
    now,
  });
  const { change, referral } = await deps.db.transaction().execute(async (tx) => {
    const inserted = await insertChange(
      tx,
      {
        ...changeFor({ policy, now }, call, 'AMENDMENT', amounts.total, deps),
        pricing,
        transaction: {
          version: {
            homeAddress,
            travellers,
            dependents,
            destinations,
            departureDate,
            coverEndDate,
            options,
            specifiedItems,
            ...(adventure ? { adventure } : {}),
            excessMinor,
            client,
          },
          amounts,
          planId: policy.plan.planId,
        },
      },
      next,
    );
    return { change: inserted, referral: judged ? await openAmendmentReferral(tx, judged, inserted.id) : undefined };
  });
  const warnings = (evaluation.validation.errors ?? []).filter((n) => !isBlocking(n));
  return {
    change,
    pricing,
    sequenceNumber,
    currency: policy.currency.code,
    notifications: warnings,
    ...(referral ? { referral } : {}),
  };
}
