import { brandOf } from '../catalogue/service.js';
import type { CatalogueReader } from '../catalogue/reader.js';
import type { Notification } from '../kernel/notifications/notification.js';
import { priceQuote } from '../pricing/engine.js';
import type { NotPriceable } from '../pricing/results.js';
import type { PricedPlan, PricingOutcome, QuotePricingRequest, QuotePricing } from './ports.js';
import { problem, warning } from '../kernel/notifications/problems.js';

/** The quotes area's pricing, by the rating engine over the brand's rate table in force. */
export function enginePricingPort(reader: CatalogueReader): QuotePricing {
  return {
    async priceQuote(request: QuotePricingRequest): Promise<PricingOutcome> {
      const rateTable = brandOf(await reader.snapshot(), request.brandCode).rates;
      const outcomes = priceQuote({
        rateTable,
        planCodes: request.plans.map((p) => p.code),
        quoteType: request.quoteType,
        travellers: request.travellers,
        regionCodes: request.regionCodes,
        tripDurationDays: request.longestTripDays,
        homeCountryCode: request.homeCountryCode,
        homeProvinceCode: request.provinceCode,
        basicOptions: request.basicOptions
          .filter((o) => o.optionType !== '')
          .map((o) => ({ optionTypeCode: o.optionType, isOptedIn: o.isOptedIn })),
        adventureActivityIds: request.adventureActivityIds,
        specifiedItems: request.specifiedItems.map((i) => ({
          guid: i.guid,
          itemValue: i.itemValue,
          itemTypeCode: i.itemTypeCode ?? '',
        })),
        cancellationCoverLimit: request.cancellationCoverLimit,
        campaignCode: request.campaign?.code,
        partnerCode: request.partnerCode,
        quoteDate: request.quoteDate,
        medicalPremiums: (request.medicalPremiums ?? []).flatMap((m) => {
          const plan = request.plans.find((p) => p.planId === m.planId);
          return plan ? [{ planCode: plan.code, travellerGuid: m.travellerGuid, premium: m.premium }] : [];
        }),
        underwritingLoadings: loadingOf(request),
      });
      const plans: PricedPlan[] = [];
      const refused: NotPriceable[] = [];
      outcomes.forEach((outcome, i) => {
        const planId = request.plans[i]?.planId ?? 0;
        if (outcome.outcome === 'NOT_PRICEABLE') refused.push(outcome);
        else
          plans.push({
            planId,
            result: Object.assign({}, outcome.result, {
              planId,
              basePriceResult: Object.assign({}, outcome.result.basePriceResult, { planId }),
            }),
            summary: Object.assign({}, outcome.summary, { planId }),
          });
      });
      // A plan that cannot cover these choices is left out with a warning; when none can, the
      // same notices are errors, since the quote has no price.
      const notice = plans.length > 0 ? warning : problem;
      return {
        currencyCode: rateTable.currencyCode,
        plans,
        notifications: dedupe(refused.map((r) => notPriceableNotice(r, request, notice))),
      };
    },
  };
}

/** The approved loading on the plan it was approved for, by the engine's plan code. */
function loadingOf(request: QuotePricingRequest) {
  const loading = request.underwritingLoading;
  const plan = loading && request.plans.find((p) => p.planId === loading.planId);
  return loading && plan ? [{ planCode: plan.code, percentage: loading.percentage }] : [];
}

type Notice = typeof problem;

/** Where in the quote input the engine's reason points. */
function propertyOf(reason: NotPriceable, request: QuotePricingRequest): string {
  const itemIndex = request.specifiedItems.findIndex((i) => i.guid === reason.detail);
  const items = `input.specifiedItemOption.specifiedItems[${itemIndex}]`;
  switch (reason.reason) {
    case 'OPTION_NOT_OFFERED':
      return `input.basicOptions[${request.basicOptions.findIndex((o) => o.optionType === reason.detail)}].optionType`;
    case 'ITEM_TYPE_UNKNOWN':
      return `${items}.itemTypeCode`;
    case 'ITEM_VALUE_OUT_OF_RANGE':
      return `${items}.itemValue`;
    case 'ITEMS_OVER_POLICY_LIMIT':
    case 'SPECIFIED_ITEMS_NOT_OFFERED':
      return 'input.specifiedItemOption';
    case 'ACTIVITY_NOT_COVERED':
    case 'ADVENTURE_NOT_OFFERED':
      return 'input.adventureActivitiesOption';
    case 'CANCELLATION_NOT_OFFERED':
    case 'CANCELLATION_LIMIT_NOT_OFFERED':
      return 'input.cancellationOption.cancellationCoverLimit';
    case 'AGE_OUT_OF_BANDS':
      return `input.policyHolders[${request.travellers.findIndex((t) => t.guid === reason.detail)}]`;
    case 'DURATION_OUT_OF_BANDS':
      return 'input.returnDate';
    case 'UNKNOWN_REGION':
      return 'input.destinationCountryCodes';
    default:
      return 'input.planId';
  }
}

function notPriceableNotice(reason: NotPriceable, request: QuotePricingRequest, notice: Notice): Notification {
  const plan = request.plans.find((p) => p.code === reason.planCode);
  return notice(
    'PLAN_NOT_AVAILABLE',
    `Plan ${reason.planCode} cannot cover this quote (${reason.reason.toLowerCase().replace(/_/g, ' ')}).`,
    propertyOf(reason, request).replace('[-1]', ''),
    undefined,
    { planCode: reason.planCode, planId: plan?.planId ?? 0, reason: reason.reason, detail: reason.detail },
  );
}

function dedupe(notifications: Notification[]): Notification[] {
  const seen = new Set<string>();
  return notifications.filter((n) => {
    const key = `${n.tokens?.planCode ?? ''}|${n.property ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
