import type { Static } from 'typebox';
import { amountFormat } from '../kernel/money/currency.js';
import type { HomeAddress } from './issue-request.js';
import type { PolicyNoteRecord } from '../policy-notes/model.js';
import { coverDays } from '../kernel/calendar/dates.js';
import { localDateOf } from '../kernel/calendar/local-date.js';
import { endOfDayIn, instantIn, startOfDayIn } from '../kernel/calendar/zones.js';
import { ACTION_TYPE_IDS, TRANSACTION_TYPE, type DetailRecord, type PersonRecord, type PolicyRecord } from './model.js';
import { amountOfType, transactionMinor } from './transaction-amounts.js';
import type {
  Address,
  AuthorizationPolicy,
  Currency,
  DependentShortSummary,
  FinancialSummary,
  PolicyDetailLongSummary,
  PolicyNote,
  PolicyStatus,
  PolicySummary,
  TravelClearSummary,
  TravellerShortSummary,
} from './schemas.js';

/** Policy records → the contract's JSON (spec §2.8, §2.9). Pure. */

type ToMajor = (minor: number) => number;

function moneyOf(policy: PolicyRecord): { major: ToMajor; display: (minor: number) => string } {
  const digits = policy.currency.minorUnits;
  const major: ToMajor = (minor) => minor / 10 ** digits;
  const number = amountFormat(digits);
  return { major, display: (minor) => `${policy.currency.symbol}${number.format(major(minor))}` };
}

function currencyOf(policy: PolicyRecord): Static<typeof Currency> {
  const { id, symbol, code, description, minorUnits } = policy.currency;
  return { id, symbol, code, description, hasMinorUnits: minorUnits > 0 };
}

function addressOf(address: HomeAddress): Static<typeof Address> {
  const {
    addressLine1,
    addressLine2,
    addressLine3,
    addressLine4,
    postalCode,
    provinceId,
    provinceName,
    countryId,
    countryName,
  } = address;
  return {
    addressLine1,
    addressLine2,
    addressLine3,
    addressLine4,
    postalCode,
    provinceId,
    provinceName,
    countryId,
    countryName,
  };
}

function authorizationOf(policy: PolicyRecord): Static<typeof AuthorizationPolicy> {
  return { planId: policy.plan.planId, partnerId: policy.partnerId, customerUserId: policy.customerUserId };
}

function travelClearOf(person: PersonRecord, major: ToMajor): Static<typeof TravelClearSummary> | undefined {
  const clear = person.travelClear;
  if (!clear) return undefined;
  const authorized = clear.authorizedPerson;
  return {
    tamisReferenceNumber: clear.tamisReferenceNumber,
    screeningDate: clear.screeningDate,
    authorizedPerson: authorized && {
      ...authorized,
      dateOfBirth: authorized.dateOfBirth === undefined ? undefined : localDateOf(authorized.dateOfBirth),
    },
    isCovered: clear.isCovered,
    excess: clear.excessMinor === undefined ? undefined : major(clear.excessMinor),
  };
}

function dependentOf(person: PersonRecord, major: ToMajor): Static<typeof DependentShortSummary> {
  return {
    dependentId: person.id,
    guid: person.guid,
    displayOrder: person.displayOrder,
    title: person.title,
    firstName: person.firstName,
    surname: person.surname,
    age: person.age,
    dateOfBirth: person.dateOfBirth === undefined ? undefined : localDateOf(person.dateOfBirth),
    travelClear: travelClearOf(person, major),
  };
}

function travellerOf(policy: PolicyRecord, person: PersonRecord, major: ToMajor): Static<typeof TravellerShortSummary> {
  const { dependentId, ...common } = dependentOf(person, major);
  return {
    travellerId: dependentId,
    ...common,
    isPrimary: person.isPrimary === true,
    emailAddress: person.emailAddress,
    landLinePhoneNumber: person.landLinePhoneNumber,
    mobileNumber: person.mobileNumber,
    authorizationPolicy: authorizationOf(policy),
  };
}

const named = (detail: DetailRecord, type: number, major: ToMajor) =>
  detail.financials
    .filter((f) => f.transactionTypeId === type)
    .map((f) => ({ name: f.name, amount: major(f.amountMinor) }));

function financialSummaryOf(detail: DetailRecord, major: ToMajor): Static<typeof FinancialSummary> {
  return {
    policyDetailId: detail.id,
    transactionAmount: major(transactionMinor(detail)),
    premium: major(amountOfType(detail, TRANSACTION_TYPE.Premium)),
    discount: major(amountOfType(detail, TRANSACTION_TYPE.Discount)),
    footprintsDonation: major(amountOfType(detail, TRANSACTION_TYPE.Donation)),
    taxes: named(detail, TRANSACTION_TYPE.Tax, major),
    // Extension (docs/api-contract.md): an amendment or cancellation fee; absent when there is none.
    ...(detail.financials.some((f) => f.transactionTypeId === TRANSACTION_TYPE.Fee)
      ? { fees: named(detail, TRANSACTION_TYPE.Fee, major) }
      : {}),
  };
}

function coverOf(policy: PolicyRecord, detail: DetailRecord) {
  const zone = policy.presentationTimeZoneCode;
  const departure = startOfDayIn(detail.departureDate, zone);
  const coverEnd = endOfDayIn(detail.coverEndDate, zone);
  return {
    departureAt: departure.at,
    departureLocalDateTime: departure.localDateTime,
    coverEndAt: coverEnd.at,
    coverEndLocalDateTime: coverEnd.localDateTime,
  };
}

function latestOf(policy: PolicyRecord): DetailRecord {
  const latest = policy.details.at(-1);
  if (!latest) throw new Error(`policy ${policy.policyNumber} has no detail`);
  return latest;
}

export function presentSummary(policy: PolicyRecord): PolicySummary {
  const detail = latestOf(policy);
  const { major, display } = moneyOf(policy);
  const zone = policy.presentationTimeZoneCode;
  const issued = instantIn(policy.audit.createdAt, zone);
  const detailIssued = instantIn(detail.audit.createdAt, zone);
  const aggregateMinor = policy.details.reduce((sum, d) => sum + transactionMinor(d), 0);
  const plan = policy.plan;
  return {
    brandCode: policy.brandCode,
    policyDetailId: detail.id,
    policyHeaderId: policy.id,
    policyNumber: policy.policyNumber,
    sequenceNumber: policy.sequenceNumber,
    policyStatusId: policy.statusId,
    policyStatus: policy.status as PolicyStatus, // the two values policy rows are written with
    detailStatusId: detail.statusId,
    detailStatus: detail.status,
    policyActionTypeId: ACTION_TYPE_IDS[detail.actionType],
    policyActionType: detail.actionType,
    plan: {
      planId: plan.planId,
      productId: plan.productId,
      planDisplayGroupId: plan.planDisplayGroupId,
      saleCurrencyId: policy.currency.id,
      code: plan.code,
      shortDescription: plan.shortDescription,
      longDescription: plan.longDescription,
      underwriterCode: plan.underwriterCode,
      isAnnualMultiTrip: plan.isAnnualMultiTrip,
      quotePanelTypeId: plan.quotePanelTypeId,
    },
    destinationRegion: policy.destinations.region,
    destinationCountries: policy.destinations.names.join(', '),
    destinationCountryCodes: policy.destinations.codes.join(','),
    referencePolicyWordingId: policy.referencePolicyWordingId,
    regulatoryWordingTranslationName: policy.regulatoryWordingTranslationName,
    displayDestinationDescription: policy.destinations.displayDescription ?? policy.destinations.names.join(', '),
    currency: currencyOf(policy),
    presentationTimeZoneCode: zone,
    policyIssuedAt: issued.at,
    policyIssuedLocalDateTime: issued.localDateTime,
    detailIssuedAt: detailIssued.at,
    detailIssuedLocalDateTime: detailIssued.localDateTime,
    ...coverOf(policy, detail),
    address: addressOf(detail.address),
    policyAudit: { ...policy.audit },
    detailAudit: { ...detail.audit },
    customerId: policy.customerUserId,
    travellers: detail.travellers.map((t) => travellerOf(policy, t, major)),
    dependents: detail.dependents.map((d) => dependentOf(d, major)),
    transactionValueAggregateAmount: { policyHeaderId: policy.id, amount: major(aggregateMinor) },
    displayTransactionValueAggregateAmount: display(aggregateMinor),
    authorizationPolicy: authorizationOf(policy),
    policyDocumentAccessGuid: policy.policyDocumentAccessGuid,
    externalMemberships: policy.externalMemberships.map((m) => ({ ...m })),
    excess: major(policy.excessMinor),
    binderId: policy.binderId,
  };
}

/** A note and its reason; local times in the policy's zone, like every `...LocalDateTime` of the policy. */
function noteOf(note: PolicyNoteRecord, zone: string): Static<typeof PolicyNote> {
  const created = instantIn(note.createdAt, zone);
  const loaded = instantIn(note.reason.etlAt, zone);
  return {
    policyNoteId: note.id,
    policyDetailId: note.policyDetailId,
    noteText: note.text,
    userId: note.userId,
    createdAt: created.at,
    createdLocalDateTime: created.localDateTime,
    policyNoteReasonId: note.reason.id,
    policyNoteReason: {
      policyNoteReasonId: note.reason.id,
      reasonText: note.reason.text,
      isActive: note.reason.isActive,
      etlAt: loaded.at,
      etlLocalDateTime: loaded.localDateTime,
      displayOrder: note.reason.displayOrder,
      isDefault: note.reason.isDefault,
    },
  };
}

/** One transaction; `notes` are the policy's (oldest first), this transaction's are kept. */
export function presentDetail(
  policy: PolicyRecord,
  detail: DetailRecord,
  notes: readonly PolicyNoteRecord[] = [],
): PolicyDetailLongSummary {
  const { major, display } = moneyOf(policy);
  const zone = policy.presentationTimeZoneCode;
  const created = instantIn(detail.audit.createdAt, zone);
  return {
    policyDetailId: detail.id,
    policyDetailNumber: detail.policyDetailNumber,
    status: detail.status,
    actionType: detail.actionType,
    ipAddress: detail.client.ipAddress,
    ipAddressCountry: detail.client.ipAddressCountry,
    userAgent: detail.client.userAgent,
    presentationTimeZoneCode: zone,
    createdAt: created.at,
    createdLocalDateTime: created.localDateTime,
    ...coverOf(policy, detail),
    coverDurationInDays: coverDays(detail.departureDate, detail.coverEndDate),
    travellers: detail.travellers.map((t) => travellerOf(policy, t, major)),
    dependents: detail.dependents.map((d) => dependentOf(d, major)),
    address: addressOf(detail.address),
    financialSummary: financialSummaryOf(detail, major),
    policyCombinedOptionLongSummary: {
      policyOptionLongSummaries: detail.options.map((o) => ({
        name: o.name,
        description: o.description,
        displayOrder: o.displayOrder,
        optionTypeId: o.optionTypeId,
        policyOptionId: o.id,
        policyDetailId: detail.id,
        planId: o.planId,
      })),
      policySpecifiedItemOption: {
        specifiedItems: detail.specifiedItems.map((item) => ({
          name: item.name,
          serialNumber: item.serialNumber,
          currency: currencyOf(policy),
          itemValue: major(item.valueMinor),
          displayItemValue: display(item.valueMinor),
        })),
      },
      policyAdventureActivitiesOption: detail.adventure && {
        adventureLevel: detail.adventure.level,
        adventureActivities: [...detail.adventure.activities],
      },
    },
    // Operators write notes (policy-notes/service.ts); none at issuance.
    notes: notes.filter((n) => n.policyDetailId === detail.id).map((n) => noteOf(n, zone)),
  };
}
