import { randomUUID } from 'node:crypto';
import type { BrandCode } from '../kernel/brands.js';
import type { Notification, Validation } from '../kernel/notifications/notification.js';
import { toMinor, minorDigits } from '../kernel/money/units.js';
import { jsonCopy } from '../http/json/json-copy.js';
import { withNestedValidation } from './nested-validation.js';
import type { QuotePricingRequest, QuotePorts, QuoteConfiguration, UnderwritingLoadingChoice } from './ports.js';
import { compileCleaner } from '../http/json/schema-clean.js';
import { QuoteInput, type QuoteRequest, type QuoteStage } from './schemas.js';
import { resolveStage } from './stages.js';
import { medicalPremiums, screeningNotices } from './screening-rules.js';
import type { PricingRecord } from './stored-quote.js';
import { isBlocking } from '../kernel/notifications/problems.js';
import type { TravellerScreening } from '../screening/model.js';
import { validateQuote, type QuoteFacts } from './validation/validate-quote.js';

export interface Evaluation {
  input: QuoteInput;
  stage: QuoteStage;
  pricing: PricingRecord;
  validation: Validation;
  /** The catalogue and rate version in force when the quote was priced. */
  version: string;
  /** The travellers' screenings judged (not stored with the quote: the referral rules read them). */
  screenings: readonly TravellerScreening[];
}

/** Drops the fields QuoteInput does not declare, into a copy (the schema is walked once, at load). */
const cleanQuoteInput = compileCleaner(QuoteInput);

/**
 * Fields outside the contract are dropped (never stored); holder and item guids are filled in
 * (prices refer to them). Client-sent `validation`s are replaced later.
 */
function normalise(raw: QuoteInput): QuoteInput {
  // The cleaner returns fresh objects, so they are completed in place; keys keep the order a spread gave them.
  const input = cleanQuoteInput(raw) as QuoteInput;
  input.quoteType ??= 'SINGLETRIP';
  input.policyHolders = input.policyHolders?.map((h) => withGuid(h));
  input.specifiedItemOption = input.specifiedItemOption && withItemGuids(input.specifiedItemOption);
  return input;
}

function withItemGuids(
  option: NonNullable<QuoteInput['specifiedItemOption']>,
): NonNullable<QuoteInput['specifiedItemOption']> {
  option.specifiedItems = option.specifiedItems?.map((item) => withGuid(item));
  return option;
}

function withGuid<T extends { guid?: string }>(value: T): T {
  value.guid ??= randomUUID();
  return value;
}

/** The pricing request, when the quote has everything a price needs and nothing wrong. */
function pricingRequest(
  brandCode: BrandCode,
  partnerCode: string,
  input: QuoteInput,
  facts: QuoteFacts,
  configuration: QuoteConfiguration,
): QuotePricingRequest | undefined {
  const { trip, homeCountryCode } = facts;
  if (!trip || homeCountryCode === undefined || !facts.allAgesKnown || facts.travellers.length === 0) return undefined;
  if (facts.regionCodes.length === 0 || facts.plansSold.length === 0) return undefined;
  const digits = minorDigits(configuration.currencyCode);
  const minor = (major: number | undefined) => (major === undefined ? undefined : toMinor(major, digits));
  return {
    brandCode,
    quoteType: facts.quoteType,
    homeCountryCode,
    provinceCode: facts.provinceCode,
    partnerCode,
    quoteDate: facts.quoteDate,
    departureDate: trip.departureDate,
    returnDate: trip.returnDate,
    coverDays: trip.coverDays,
    longestTripDays: trip.longestTripDays,
    regionCodes: facts.regionCodes,
    travellers: facts.travellers,
    plans: facts.plansSold,
    campaign: facts.campaign,
    // Same order as the input, so the engine's notifications can name `input.basicOptions[i]`.
    basicOptions: (input.basicOptions ?? []).map((o) => ({
      optionType: o.optionType ?? '',
      isOptedIn: o.isOptedIn === true,
      optedInTotalValue: minor(o.optedInTotalValue),
    })),
    adventureActivityIds: input.adventureActivitiesOption?.adventureActivityIds ?? [],
    specifiedItems: (input.specifiedItemOption?.specifiedItems ?? []).map((item) => ({
      guid: item.guid ?? '',
      name: item.name ?? '',
      itemValue: minor(item.itemValue) ?? 0,
      itemTypeId: item.itemTypeId,
      itemTypeCode: item.itemTypeCode,
    })),
    cancellationCoverLimit: minor(input.cancellationOption?.cancellationCoverLimit),
    tripValue: minor(input.tripValue),
  };
}

/**
 * Validates, prices and stages a quote: catalogue data through the ports, rules in pure
 * functions. Nothing is stored here.
 */
export async function evaluateQuote(
  ports: QuotePorts,
  request: {
    brandCode: BrandCode;
    partnerCode: string;
    body: QuoteRequest;
    currentStage?: QuoteStage;
    now: Date;
    /** Judge dates and ages at this date instead of today (amendments of a trip under way). */
    quoteDate?: string;
    /** A stored quote's id: its travellers' medical screenings are priced and staged. */
    quoteId?: string;
    /** Take the screenings as completed, not judged against this input (a sold policy's amendment). */
    screeningsAsSold?: boolean;
    /** An underwriter's approved loading (referrals): priced as the UNDERWRITING_LOADING line. */
    underwritingLoading?: UnderwritingLoadingChoice;
  },
): Promise<Evaluation> {
  const { brandCode, now } = request;
  const input = normalise(request.body.input);
  const quoteType = input.quoteType ?? 'SINGLETRIP';
  const codes = [...new Set((input.destinationCountryCodes ?? []).map((c) => c.toUpperCase()))];
  const campaignCode = input.campaignCode;
  const [configuration, destinations, plans, campaign, version] = await Promise.all([
    ports.catalogue.quoteConfiguration(brandCode, quoteType, now),
    codes.length > 0 ? ports.catalogue.destinations(brandCode, codes) : Promise.resolve([]),
    ports.catalogue.plans(brandCode, quoteType),
    campaignCode ? ports.catalogue.campaign(brandCode, campaignCode) : Promise.resolve(undefined),
    ports.catalogue.versionInForce(brandCode, now),
  ]);
  const screenings =
    request.quoteId === undefined
      ? []
      : await ports.screenings.ofQuote(
          request.quoteId,
          request.screeningsAsSold === true ? undefined : { input, catalogueVersion: version },
        );
  const { notifications, facts } = validateQuote(input, {
    brandCode,
    partnerCode: request.partnerCode,
    configuration,
    destinations,
    plans,
    campaign,
    now,
    ...(request.quoteDate !== undefined ? { quoteDate: request.quoteDate } : {}),
  });

  let pricing: PricingRecord = { priceResults: [], prices: [] };
  const priceable =
    configuration && !notifications.some(isBlocking)
      ? pricingRequest(brandCode, request.partnerCode, input, facts, configuration)
      : undefined;
  if (priceable) {
    const outcome = await ports.pricing.priceQuote(
      Object.assign(
        {},
        priceable,
        { medicalPremiums: medicalPremiums(input, screenings) },
        request.underwritingLoading ? { underwritingLoading: request.underwritingLoading } : {},
      ),
    );
    notifications.push(...outcome.notifications);
    pricing = {
      currencyCode: outcome.currencyCode,
      priceResults: outcome.plans.map((p) => p.result),
      prices: outcome.plans.map((p) => p.summary),
    };
  }
  const staged = resolveStage({
    current: request.currentStage,
    requested: request.body.stage,
    input,
    facts,
    hasErrors: notifications.some(isBlocking),
    screenings,
    // The chosen plan's version: one without screening names the cause instead of asking for a screening.
    screeningOffered: plans.find((p) => p.planId === input.planId)?.offersScreening !== false,
  });
  const all: Notification[] = [...notifications, ...screeningNotices(input, screenings), ...staged.notifications];
  return {
    // Only what is set: stored JSON and answers carry no undefined members.
    input: jsonCopy(withNestedValidation(input, all)),
    stage: staged.stage,
    pricing,
    validation: { isValid: !all.some(isBlocking), errors: all },
    version,
    screenings,
  };
}
