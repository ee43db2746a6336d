import type { Actor } from '../auth/principal.js';
import type { BrandCode } from '../kernel/brands.js';
import { brandOf } from '../catalogue/service.js';
import { servicingRulesOf } from '../catalogue/servicing.js';
import { isIsoDate, isoDate, parseDate, plusDays } from '../kernel/calendar/dates.js';
import type { Notification } from '../kernel/notifications/notification.js';
import { problem } from '../kernel/notifications/problems.js';
import type { ChangeDeps } from './deps.js';
import type { CancellationPricing, CancellationReason, PreviewResult } from './model.js';
import { changeStart, paidSoFar, versionOf } from './policy-facts.js';
import { changeFor } from './preview-change.js';
import { insertChange } from './repository.js';
import { recordedClient } from '../purchases/policy-request.js';
import { cancellationTerms } from './rules.js';

/**
 * A cancellation's preview (docs/api-contract.md, "Cancellations"): the refund and its basis under
 * the brand's servicing rules — all of it inside the cooling-off period, else pro rata of the
 * unused cover or nothing, less any cancellation fee. Cover ends the day before `effectiveDate`.
 */
export interface CancellationCall {
  readonly actor: Actor;
  readonly brandCode: BrandCode;
  readonly policyNumber: string;
  readonly reasonCode: CancellationReason;
  readonly effectiveDate?: string;
  readonly client: { ipAddress?: string; userAgent?: string };
}

function dateProblems(
  effectiveDate: string,
  today: string,
  departureDate: string,
  coverEndDate: string,
): Notification[] {
  const property = 'effectiveDate';
  if (!isIsoDate(effectiveDate))
    return [
      problem('INVALID_DATE', 'effectiveDate is not a real date in the form YYYY-MM-DD.', property, effectiveDate),
    ];
  if (effectiveDate < today)
    return [
      problem('EFFECTIVE_DATE_IN_PAST', 'A cancellation cannot take effect before today.', property, effectiveDate, {
        today,
      }),
    ];
  if (effectiveDate > coverEndDate)
    return [
      problem('EFFECTIVE_DATE_AFTER_COVER_END', 'The cover ends before this date.', property, effectiveDate, {
        coverEndDate,
      }),
    ];
  // Before the trip a cancellation takes effect by departure at the latest; once under way, today.
  const latest = departureDate > today ? departureDate : today;
  if (effectiveDate > latest)
    return [
      problem(
        'EFFECTIVE_DATE_AFTER_DEPARTURE',
        'A cancellation takes effect no later than departure, or today once the trip has started.',
        property,
        effectiveDate,
        { latestEffectiveDate: latest },
      ),
    ];
  return [];
}

/** The last day of cover of a policy cancelled from `effectiveDate`: the day before, once the trip has begun. */
function lastDayOfCover(effectiveDate: string, departureDate: string, coverEndDate: string): string {
  if (effectiveDate <= departureDate) return coverEndDate;
  const date = parseDate(effectiveDate);
  return date ? isoDate(plusDays(date, -1)) : coverEndDate;
}

export async function previewCancellation(deps: ChangeDeps, call: CancellationCall): Promise<PreviewResult> {
  const { actor, brandCode } = call;
  const lookup = { policyNumber: call.policyNumber, brandCode, partnerId: actor.partnerId };
  const { policy, latest, sequenceNumber, now, zone, today } = await changeStart(deps.db, lookup, deps.clock());
  const effectiveDate = call.effectiveDate ?? today;
  const notifications = dateProblems(effectiveDate, today, latest.departureDate, latest.coverEndDate);
  if (notifications.length > 0) return { sequenceNumber, currency: policy.currency.code, notifications };

  const brand = brandOf(await deps.catalogue.snapshot(), brandCode);
  const rules = servicingRulesOf(brand, policy.plan.code);
  const paid = paidSoFar(policy);
  const terms = cancellationTerms(rules, {
    issuedAt: policy.audit.createdAt,
    zone,
    today,
    effectiveDate,
    departureDate: latest.departureDate,
    coverEndDate: latest.coverEndDate,
    paid,
  });
  const pricing: CancellationPricing = {
    kind: 'CANCELLATION',
    reasonCode: call.reasonCode,
    effectiveDate,
    basis: terms.basis,
    coolingOffEndsAt: terms.coolingOffEndsAt,
    coverDays: terms.coverDays,
    unusedDays: terms.unusedDays,
    paid,
    refund: terms.refund,
  };
  const version = versionOf(policy, latest);
  const client = recordedClient(call.client);
  const change = await insertChange(deps.db, {
    ...changeFor({ policy, now }, call, 'CANCELLATION', terms.refund.total, deps),
    pricing,
    transaction: {
      version: {
        ...version,
        coverEndDate: lastDayOfCover(effectiveDate, latest.departureDate, latest.coverEndDate),
        client,
      },
      amounts: terms.refund,
      planId: policy.plan.planId,
    },
  });
  return { change, pricing, sequenceNumber, currency: policy.currency.code, notifications: [] };
}
