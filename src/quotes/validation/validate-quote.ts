import type { BrandCode } from '../../kernel/brands.js';
import type { Notification } from '../../kernel/notifications/notification.js';
import type { CampaignInfo, Destination, PlanVersion, QuoteConfiguration } from '../ports.js';
import type { QuoteInput, QuoteType } from '../schemas.js';
import { isoDate, parseDate, type CalendarDate } from '../../kernel/calendar/dates.js';
import { calendarDateIn } from '../../kernel/calendar/zones.js';
import { validateDestinations } from './destinations.js';
import { problem } from '../../kernel/notifications/problems.js';
import { validateTravellers, type TravellerFacts } from './travellers.js';
import { validateTrip, type TripFacts } from './trip.js';

/** What validation reads besides the input: catalogue data, the caller's partner, the instant. */
export interface ValidationData {
  brandCode: BrandCode;
  partnerCode: string;
  configuration: QuoteConfiguration | undefined;
  destinations: readonly Destination[];
  plans: readonly PlanVersion[];
  /** The campaign the input's `campaignCode` names, if the catalogue knows it. */
  campaign: CampaignInfo | undefined;
  now: Date;
  /**
   * The date a policy amendment is judged at instead of today (YYYY-MM-DD): the policy's issue date
   * for a trip already under way, whose departure is in the past (policy-changes/amendments.ts).
   */
  quoteDate?: string;
}

/** What validation learned, for the stage rules and the pricing request. */
export interface QuoteFacts extends TravellerFacts {
  quoteType: QuoteType;
  quoteDate: string;
  homeCountryCode?: string;
  provinceCode?: string;
  trip?: TripFacts;
  regionCodes: string[];
  plansSold: PlanVersion[];
  /** Set only when the campaign applies to this quote. */
  campaign?: CampaignInfo;
}

function homeCountry(input: QuoteInput, configuration: QuoteConfiguration, out: Notification[]): string | undefined {
  const configured = new Set(configuration.travelDurationConfigs.map((c) => c.homeCountryCode));
  const given = input.homeAddress?.countryCode?.toUpperCase();
  if (given === undefined) return configured.size === 1 ? [...configured][0] : undefined;
  if (!configured.has(given)) {
    out.push(
      problem(
        'HOME_COUNTRY_NOT_SUPPORTED',
        'This brand does not insure residents of this country.',
        'input.homeAddress.countryCode',
        given,
        { supported: [...configured].join(',') },
      ),
    );
    return undefined;
  }
  return given;
}

function sold(plan: PlanVersion, quoteType: QuoteType, home: string, date: string): boolean {
  return (
    plan.quoteType === quoteType &&
    plan.homeCountryCodes.includes(home) &&
    plan.effectiveFromDate <= date &&
    (plan.effectiveToDate === undefined || date <= plan.effectiveToDate)
  );
}

function validateCampaign(
  input: QuoteInput,
  data: ValidationData,
  date: string,
  chosen: PlanVersion | undefined,
  out: Notification[],
): CampaignInfo | undefined {
  const code = input.campaignCode;
  if (code === undefined || code === '') return undefined;
  const property = 'input.campaignCode';
  const campaign = data.campaign;
  if (campaign?.code.toUpperCase() !== code.toUpperCase()) {
    out.push(problem('CAMPAIGN_UNKNOWN', `Campaign code '${code}' does not exist for this brand.`, property, code));
  } else if (date < campaign.validFrom || date > campaign.validTo) {
    out.push(
      problem('CAMPAIGN_NOT_VALID_ON_DATE', 'The campaign is not valid on the quote date.', property, code, {
        validFrom: campaign.validFrom,
        validTo: campaign.validTo,
      }),
    );
  } else if (campaign.partnerCodes && !campaign.partnerCodes.includes(data.partnerCode)) {
    out.push(problem('CAMPAIGN_NOT_FOR_PARTNER', 'The campaign is not offered through this partner.', property, code));
  } else if (chosen && campaign.planCodes && !campaign.planCodes.includes(chosen.code)) {
    out.push(
      problem('CAMPAIGN_NOT_FOR_PLAN', 'The campaign does not apply to the chosen plan.', property, code, {
        planCode: chosen.code,
      }),
    );
  } else {
    return campaign;
  }
  return undefined;
}

/**
 * Validates a quote input against the configuration in force. Pure: never throws on any input
 * the schema accepts, never reads a clock or database. Missing data a stage needs is the stage
 * rules' concern (`stages.ts`); this reports what is present and wrong.
 */
export function validateQuote(
  input: QuoteInput,
  data: ValidationData,
): { notifications: Notification[]; facts: QuoteFacts } {
  const out: Notification[] = [];
  const quoteType = input.quoteType ?? 'SINGLETRIP';
  const { configuration } = data;
  const quoteDateTime: CalendarDate =
    (data.quoteDate !== undefined ? parseDate(data.quoteDate) : undefined) ??
    calendarDateIn(data.now, configuration?.timeZone ?? 'UTC');
  const quoteDate = isoDate(quoteDateTime);
  const facts: QuoteFacts = {
    quoteType,
    quoteDate,
    travellers: [],
    allAgesKnown: false,
    regionCodes: [],
    plansSold: [],
  };
  if (!configuration) {
    out.push(
      problem('QUOTE_TYPE_NOT_OFFERED', `This brand does not offer ${quoteType} quotes.`, 'input.quoteType', quoteType),
    );
    return { notifications: out, facts };
  }

  const home = homeCountry(input, configuration, out);
  facts.homeCountryCode = home;
  const durationRules = configuration.travelDurationConfigs.find((c) => c.homeCountryCode === home);
  const ageRules = configuration.policyHolderAgeConfigs.find((c) => c.homeCountryCode === home);
  const restrictions = configuration.travelRestrictionConfigs.find((c) => c.homeCountryCode === home);

  const province = input.homeAddress?.provinceCode?.toUpperCase();
  facts.provinceCode = province;
  if (restrictions?.isProvinceRequiredForQuote && (province === undefined || province === '')) {
    out.push(
      problem(
        'PROVINCE_REQUIRED',
        'The state or province of the home address is needed for a quote.',
        'input.homeAddress.provinceCode',
      ),
    );
  } else if (province !== undefined && restrictions?.unsupportedHomeProvinceCodes.includes(province)) {
    out.push(
      problem(
        'PROVINCE_NOT_SUPPORTED',
        'Residents of this state or province cannot be insured by this brand.',
        'input.homeAddress.provinceCode',
        province,
      ),
    );
  }

  const holders = input.policyHolders ?? [];
  const travellerFacts = validateTravellers(holders, configuration, ageRules, quoteDateTime, out);
  Object.assign(facts, travellerFacts);
  facts.trip = validateTrip(input, quoteType, durationRules, quoteDateTime, out);
  facts.regionCodes = validateDestinations(
    input.destinationCountryCodes ?? [],
    data.destinations,
    restrictions,
    home,
    out,
  );

  if (input.tripValue !== undefined) {
    const adults = Math.max(1, holders.filter((h) => h.isDependent !== true).length);
    const perTraveller = input.tripValue / adults;
    if (perTraveller > configuration.maxTripValuePerTraveller) {
      out.push(
        problem(
          'TRIP_VALUE_TOO_HIGH',
          `The trip value per adult traveller can be at most ${configuration.maxTripValuePerTraveller}.`,
          'input.tripValue',
          input.tripValue,
          { max: configuration.maxTripValuePerTraveller },
        ),
      );
    }
  }

  if (home !== undefined) facts.plansSold = data.plans.filter((p) => sold(p, quoteType, home, quoteDate));
  const planId = input.planId ?? 0;
  const chosen = facts.plansSold.find((p) => p.planId === planId);
  if (planId !== 0 && !chosen && home !== undefined) {
    out.push(
      problem(
        'PLAN_NOT_SOLD',
        'The chosen plan is not sold for this home country, quote type and date.',
        'input.planId',
        planId,
        { homeCountryCode: home, quoteDate },
      ),
    );
  }
  if (home !== undefined && facts.plansSold.length === 0) {
    out.push(
      problem(
        'NO_PLAN_AVAILABLE',
        'No plan of this brand is sold for this home country and quote type today.',
        'input.homeAddress.countryCode',
        home,
      ),
    );
  }
  facts.campaign = validateCampaign(input, data, quoteDate, chosen, out);
  return { notifications: out, facts };
}
