import { DateTime } from 'luxon';
import worldCountries, { type Country } from 'world-countries';
import type { BrandCatalogue, PlanVersion } from '../catalogue/model.js';
import type { CatalogueSnapshot } from '../catalogue/reader.js';
import type { InsuredPerson, PolicyIssueRequest } from '../policies/issue-request.js';
import { countryOfIp } from '../http/ip-country.js';
import { wholeYears } from '../kernel/calendar/dates.js';
import { currencyFacts } from '../kernel/money/currency.js';
import { minorDigits, toMinor } from '../kernel/money/units.js';
import type { PolicyHolderInput, QuoteInput, QuotePriceSummary } from '../quotes/schemas.js';
import type { StoredQuote } from '../quotes/stored-quote.js';
import type { TravellerScreening } from '../screening/model.js';
import type { ApprovalTerms } from '../referrals/model.js';

/** What a purchase knows that a policy records, gathered once when the purchase starts (pure). */

// The package is CommonJS (module.exports = the array); its typings declare an ES default export.
const countries = worldCountries as unknown as readonly Country[];
const alpha2 = (code: string): string =>
  code.length === 2
    ? code.toUpperCase()
    : (countries.find((c) => c.cca3 === code.toUpperCase())?.cca2 ?? code.slice(0, 2));

export interface PolicyRequestFacts {
  readonly quote: StoredQuote;
  /** The stored input completed with the purchase's holder details and declarations. */
  readonly input: QuoteInput;
  /** The chosen plan's price, minor units. */
  readonly price: QuotePriceSummary;
  readonly plan: PlanVersion;
  readonly brand: BrandCatalogue;
  readonly snapshot: CatalogueSnapshot;
  readonly createdByUserId: number;
  readonly client: { ipAddress?: string; userAgent?: string };
  /** Today in the brand's zone (ages are taken at the quote date, AGEATQUOTE). */
  readonly today: string;
  /** The travellers' medical screenings at purchase (TravelClearSummary); none when absent. */
  readonly screenings?: readonly TravellerScreening[];
  /** An underwriter approved the quote's referral: its extra excess, and the detail is `Authorised`. */
  readonly approval?: ApprovalTerms;
}

/** A catalogue id, when the version the policy was priced from declares it (older versions did not). */
const declared = (id: number | undefined): { id?: number } => (id !== undefined && id > 0 ? { id } : {});

function currencyOf(code: string, id: number | undefined): PolicyIssueRequest['plan']['currency'] {
  const { symbol, description, minorDigits } = currencyFacts(code);
  return { ...declared(id), code, symbol, description, minorUnits: minorDigits };
}

const declaredAs = <K extends string>(key: K, id: number | undefined): Partial<Record<K, number>> =>
  (id !== undefined && id > 0 ? { [key]: id } : {}) as Partial<Record<K, number>>;

/** ISO 3166-1 numeric code of an alpha-3 country (`Address.countryId`): AUS 36, NZL 554. */
function countryNumber(code: string): number | undefined {
  const numeric = Number(countries.find((c) => c.cca3 === code)?.ccn3);
  return Number.isInteger(numeric) && numeric > 0 ? numeric : undefined;
}

/** The rating region of the destinations: the highest-ranked one the brand rates them in (`destinationRegion`). */
function regionOf(codes: readonly string[], brand: BrandCatalogue, snapshot: CatalogueSnapshot): string | undefined {
  const rank = new Map(brand.rates.ratingRegions.map((r) => [r.code, r.rank]));
  const regions = codes.flatMap((c) => snapshot.destinations.get(c)?.ratingRegion ?? []);
  return regions.sort((a, b) => (rank.get(b) ?? 0) - (rank.get(a) ?? 0))[0];
}

/** The language of the policy's wording: the quote's culture when the brand has it, else the brand's default. */
function wordingLanguage(input: QuoteInput, brand: BrandCatalogue): string {
  const language = input.cultureCode?.split('-')[0]?.toLowerCase() ?? '';
  return Object.hasOwn(brand.brand.languages, language) ? language : brand.brand.defaultLanguage;
}

/** The client as a policy transaction records it, with the country its address is registered in. */
export function recordedClient(client: { ipAddress?: string; userAgent?: string }): PolicyIssueRequest['client'] {
  const country = countryOfIp(client.ipAddress);
  return {
    ...(client.ipAddress ? { ipAddress: client.ipAddress.slice(0, 64) } : {}),
    ...(country ? { ipAddressCountry: country } : {}),
    ...(client.userAgent ? { userAgent: client.userAgent.slice(0, 1000) } : {}),
  };
}

function ageOn(holder: PolicyHolderInput, today: string): number | undefined {
  if (holder.dateOfBirth) {
    const years = wholeYears(holder.dateOfBirth, today);
    if (Number.isFinite(years)) return Math.max(0, years);
  }
  return holder.age !== undefined && holder.age >= 0 ? holder.age : undefined;
}

/**
 * The traveller's TravelClearSummary: covered when opted in for cover and not DECLINED; the excess
 * is the plan's standard excess plus the screening's extra excess (minor units).
 */
function travelClearOf(
  holder: PolicyHolderInput,
  screening: TravellerScreening | undefined,
  planExcess: number,
): InsuredPerson['travelClear'] {
  const option = holder.travelClearOption;
  if (!option) return undefined;
  const assessment = screening?.status === 'COMPLETED' ? screening.assessment : undefined;
  const optedIn = option.isOptedInForCover === true;
  if (!screening || !assessment) return { isCovered: optedIn };
  return {
    ...(screening.reference ? { tamisReferenceNumber: screening.reference } : {}),
    ...(screening.screenedAt ? { screeningDate: screening.screenedAt } : {}),
    ...(screening.authorizedPerson ? { authorizedPerson: screening.authorizedPerson } : {}),
    isCovered: optedIn && assessment.outcome !== 'DECLINED',
    excessMinor: planExcess + (optedIn ? assessment.excessMinor : 0),
  };
}

function person(
  holder: PolicyHolderInput,
  today: string,
  index: number,
  travelClear: InsuredPerson['travelClear'],
): InsuredPerson {
  const age = ageOn(holder, today);
  return {
    guid: holder.guid ?? `holder-${index + 1}`,
    ...(holder.isPrimary === true ? { isPrimary: true } : {}),
    firstName: holder.firstName?.trim() || '-',
    surname: holder.lastName?.trim() || '-',
    ...(age !== undefined ? { age } : {}),
    ...(holder.dateOfBirth ? { dateOfBirth: holder.dateOfBirth } : {}),
    ...(holder.emailAddress ? { emailAddress: holder.emailAddress } : {}),
    ...(holder.phoneNumber ? { mobileNumber: holder.phoneNumber } : {}),
    ...(travelClear ? { travelClear } : {}),
  };
}

/** Last day of cover: the return date (single trip) or the cover end (multi-trip, default one year less a day). */
function coverEnd(input: QuoteInput, departure: string): string {
  if (input.quoteType === 'MULTITRIP')
    return input.coverEndDate ?? DateTime.fromISO(departure).plus({ years: 1, days: -1 }).toISODate() ?? departure;
  return input.returnDate ?? departure;
}

/** Policy amounts from the price summary: premium before discounts, so premium − discount + taxes = total. */
function amountsOf(price: QuotePriceSummary): PolicyIssueRequest['amounts'] {
  const taxes = (price.basePrice?.taxComponents ?? []).map((t) => ({
    name: t.taxName ?? 'Tax',
    amount: t.taxAmount ?? 0,
  }));
  const total = price.totalPrice ?? 0;
  const discount = (price.campaignDiscount ?? 0) + (price.partnerDiscount ?? 0);
  const taxTotal = taxes.reduce((sum, t) => sum + t.amount, 0);
  return { premium: total - taxTotal + discount, discount, taxes, donation: 0, total };
}

function optionsOf(price: QuotePriceSummary, names: ReadonlyMap<string, string>): PolicyIssueRequest['options'] {
  const all = [
    ...(price.basicOptionPrices ?? []),
    price.specifiedItemOptionPrice,
    price.adventureActivitiesOptionPrice,
    price.tripCancellationPrice,
  ];
  return all
    .filter((o): o is NonNullable<typeof o> => o !== undefined)
    .map((o, i) => {
      const description = names.get(o.optionType ?? '');
      return {
        optionTypeId: o.optionId ?? 0,
        name: o.optionType ?? 'OPTION',
        ...(description ? { description } : {}),
        displayOrder: o.displayOrder ?? i + 1,
      };
    });
}

function adventureOf(input: QuoteInput, brand: BrandCatalogue, plan: PlanVersion): PolicyIssueRequest['adventure'] {
  const ids = input.adventureActivitiesOption?.adventureActivityIds ?? [];
  if (ids.length === 0) return undefined;
  const levels = brand.rates.plans.find((p) => p.planCode === plan.code)?.adventureActivities?.levels ?? [];
  const needed = levels.filter((l) => l.activityIds.some((id) => ids.includes(id))).sort((a, b) => b.rank - a.rank)[0];
  return { level: needed?.level ?? 'ADVENTUREACTIVITIES', activities: ids.map((id) => `Activity ${id}`) };
}

/** The PolicyIssueRequest of a purchase (payment reference added once the card is authorised). */
export function buildPolicyRequest(facts: PolicyRequestFacts): PolicyIssueRequest {
  const { quote, input, price, plan, brand, snapshot, today } = facts;
  const homeCode = (input.homeAddress?.countryCode ?? brand.brand.homeCountryCodes[0] ?? '').toUpperCase();
  const home = snapshot.homeCountries.get(homeCode);
  const province = home?.provinces.find((p) => p.code === input.homeAddress?.provinceCode?.toUpperCase());
  const digits = minorDigits(plan.currencyCode);
  const screeningOf = (h: PolicyHolderInput) => facts.screenings?.find((s) => s.travellerGuid === h.guid);
  const travelClear = (h: PolicyHolderInput) => travelClearOf(h, screeningOf(h), price.standardExcess ?? 0);
  const holders = (input.policyHolders ?? []).map((h, i) => ({
    holder: h,
    person: person(h, today, i, travelClear(h)),
  }));
  const codes = [...new Set((input.destinationCountryCodes ?? []).map((c) => c.toUpperCase()))];
  const departureDate = input.departureDate ?? today;
  const ids = input.externalIdentifiers;
  const language = wordingLanguage(input, brand);
  const optionNames = new Map(
    (brand.brand.optionTypes ?? []).map((o) => [o.code, o.names[language] ?? o.names.en ?? o.code]),
  );
  const region = regionOf(codes, brand, snapshot);
  const quotePanelTypeId = brand.quoteConfig.quoteTypes[plan.quoteType].quotePanelTypeId;
  const countryId = countryNumber(homeCode);
  return {
    brandCode: brand.brandCode,
    partnerId: quote.partnerId,
    customerUserId: quote.customerUserId,
    createdByUserId: facts.createdByUserId,
    quoteId: quote.id,
    plan: {
      planId: plan.planId,
      productId: plan.insuranceContractId,
      ...declaredAs('planDisplayGroupId', plan.displayGroupId),
      ...declaredAs('quotePanelTypeId', quotePanelTypeId),
      code: plan.code,
      shortDescription: plan.name,
      longDescription: plan.name,
      underwriterCode: plan.underwriterCode,
      isAnnualMultiTrip: plan.quoteType === 'MULTITRIP',
      currency: currencyOf(plan.currencyCode, plan.currencyId),
      policyNumberPrefix: plan.policyNumberPrefix,
      policyNumberFormat: plan.policyNumberFormat,
      jurisdictionCountryCode: alpha2(plan.overrideJurisdictionCountryCode ?? homeCode),
    },
    homeAddress: {
      ...(input.homeAddress?.addressLine1 ? { addressLine1: input.homeAddress.addressLine1 } : {}),
      ...(input.homeAddress?.addressLine2 ? { addressLine2: input.homeAddress.addressLine2 } : {}),
      ...(input.homeAddress?.addressLine3 ? { addressLine3: input.homeAddress.addressLine3 } : {}),
      ...(input.homeAddress?.addressLine4 ? { addressLine4: input.homeAddress.addressLine4 } : {}),
      ...(input.homeAddress?.postalCode ? { postalCode: input.homeAddress.postalCode } : {}),
      ...(province
        ? { ...declaredAs('provinceId', province.id), provinceCode: province.code, provinceName: province.name }
        : {}),
      ...(countryId !== undefined ? { countryId } : {}),
      countryCode: alpha2(homeCode),
      countryName: snapshot.destinations.get(homeCode)?.names.en ?? homeCode,
    },
    presentationTimeZoneCode: province?.timeZone ?? home?.timeZone ?? 'UTC',
    travellers: holders.filter((h) => h.holder.isDependent !== true).map((h) => h.person),
    dependents: holders.filter((h) => h.holder.isDependent === true).map((h) => h.person),
    destinations: {
      codes,
      names: codes.map((c) => snapshot.destinations.get(c)?.names.en ?? c),
      ...(region ? { region } : {}),
    },
    departureDate,
    coverEndDate: coverEnd(input, departureDate),
    amounts: amountsOf(price),
    options: optionsOf(price, optionNames),
    specifiedItems: (input.specifiedItemOption?.specifiedItems ?? []).map((item) => ({
      name: item.name ?? item.itemTypeCode ?? 'Item',
      valueMinor: toMinor(item.itemValue ?? 0, digits),
    })),
    ...(adventureOf(input, brand, plan) ? { adventure: adventureOf(input, brand, plan) } : {}),
    excessMinor: (price.standardExcess ?? 0) + (facts.approval?.extraExcessMinor ?? 0),
    ...(facts.approval ? { isAuthorised: true } : {}),
    externalMemberships: ids?.externalMembershipNumber
      ? [
          {
            name: `Provider ${ids.externalMembershipProviderId ?? 0}`,
            code: String(ids.externalMembershipProviderId ?? 0),
            number: ids.externalMembershipNumber,
          },
        ]
      : [],
    ...(ids?.bookingReference ? { bookingReference: ids.bookingReference } : {}),
    client: recordedClient(facts.client),
    // The policy wording is the PDS of the plan version's insurance contract, in the policy's language.
    referencePolicyWordingId: plan.insuranceContractId,
    regulatoryWordingTranslationName: brand.brand.languages[language] ?? language,
    ...(plan.binderId > 0 ? { binderId: plan.binderId } : {}),
  };
}
