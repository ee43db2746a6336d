import type { Insertable } from 'kysely';
import type { InsuredPerson, PolicyIssueRequest } from './issue-request.js';
import type { TransactionAmounts } from './transaction-request.js';
import { ACTION_TYPE_IDS, DETAIL_STATUS, POLICY_STATUS, TRANSACTION_TYPE, type IssueDecision } from './model.js';
import type {
  PolicyDetailTable,
  PolicyFinancialValueTable,
  PolicyHeaderTable,
  PolicyOptionTable,
  PolicyTravellerTable,
} from './tables.js';

/**
 * The rows a purchased policy writes (header, detail #1, travellers and dependents, options,
 * money) built from its issue request: the policies repository's row types, kept in their own
 * file because both engines' writes (repository.ts) use them.
 */

const json = (value: unknown) => JSON.stringify(value);

// The columns each row brings (ids and numbers come from the statement that writes it on PostgreSQL).
export const HEADER_COLUMNS = [
  'brand_code',
  'partner_id',
  'customer_user_id',
  'quote_id',
  'plan_json',
  'currency_json',
  'status_id',
  'status',
  'sequence_number',
  'presentation_time_zone_code',
  'destination_region',
  'destination_codes_json',
  'destination_names_json',
  'display_destination_description',
  'reference_policy_wording_id',
  'regulatory_wording_translation_name',
  'binder_id',
  'excess_minor',
  'external_memberships_json',
  'policy_document_access_guid',
  'booking_reference',
  'created_at',
  'created_by_user_id',
  'updated_at',
  'updated_by_user_id',
] as const satisfies readonly Exclude<keyof PolicyHeaderTable, 'id' | 'policy_number'>[];
export const DETAIL_COLUMNS = [
  'sequence_number',
  'action_type_id',
  'action_type',
  'status_id',
  'status',
  'ip_address',
  'ip_address_country',
  'user_agent',
  'departure_date',
  'cover_end_date',
  'address_json',
  'specified_items_json',
  'adventure_level',
  'adventure_activities_json',
  'payment_reference',
  'payment_method',
  'created_at',
  'created_by_user_id',
  'updated_at',
  'updated_by_user_id',
] as const satisfies readonly Exclude<keyof PolicyDetailTable, 'id' | 'policy_header_id' | 'policy_detail_number'>[];
export const TRAVELLER_COLUMNS = [
  'role',
  'guid',
  'display_order',
  'is_primary',
  'title',
  'first_name',
  'surname',
  'age',
  'email_address',
  'land_line_phone_number',
  'mobile_number',
  'date_of_birth',
  'travel_clear_json',
] as const satisfies readonly Exclude<keyof PolicyTravellerTable, 'id' | 'policy_header_id' | 'policy_detail_id'>[];
export const OPTION_COLUMNS = [
  'plan_id',
  'option_type_id',
  'name',
  'description',
  'display_order',
] as const satisfies readonly Exclude<keyof PolicyOptionTable, 'id' | 'policy_header_id' | 'policy_detail_id'>[];
export const MONEY_COLUMNS = ['transaction_type_id', 'name', 'amount_minor'] as const satisfies readonly Exclude<
  keyof PolicyFinancialValueTable,
  // Per-option and per-person amounts come with amendments, never with a purchase.
  'id' | 'policy_header_id' | 'policy_detail_id' | 'option_type_id' | 'traveller_guid' | 'dependent_guid'
>[];
/** `true` only when `Listed` names every column of `Table` but `Unlisted`: a column added to a table must be added above. */
type Lists<Table, Unlisted extends keyof Table, Listed> = [Exclude<keyof Table, Unlisted | Listed>] extends [never]
  ? true
  : false;
export const COLUMN_LISTS_COMPLETE: [
  Lists<PolicyHeaderTable, 'id' | 'policy_number', (typeof HEADER_COLUMNS)[number]>,
  Lists<PolicyDetailTable, 'id' | 'policy_header_id' | 'policy_detail_number', (typeof DETAIL_COLUMNS)[number]>,
  Lists<PolicyTravellerTable, 'id' | 'policy_header_id' | 'policy_detail_id', (typeof TRAVELLER_COLUMNS)[number]>,
  Lists<PolicyOptionTable, 'id' | 'policy_header_id' | 'policy_detail_id', (typeof OPTION_COLUMNS)[number]>,
  Lists<
    PolicyFinancialValueTable,
    'id' | 'policy_header_id' | 'policy_detail_id' | 'option_type_id' | 'traveller_guid' | 'dependent_guid',
    (typeof MONEY_COLUMNS)[number]
  >,
] = [true, true, true, true, true];

/** Every column is written (none left to its default), so each insert has one shape. */
export type HeaderRow = Required<Omit<Insertable<PolicyHeaderTable>, 'id'>>;
export type DetailRow = Required<Omit<Insertable<PolicyDetailTable>, 'id' | 'policy_header_id'>>;
export type PersonRow = Required<Omit<Insertable<PolicyTravellerTable>, 'id'>>;
export type OptionRow = Required<Omit<Insertable<PolicyOptionTable>, 'id'>>;
export type MoneyRow = Pick<
  Required<Insertable<PolicyFinancialValueTable>>,
  'policy_header_id' | 'policy_detail_id' | 'transaction_type_id' | 'name' | 'amount_minor'
>;
export type PolicyIds = { headerId: number; detailId: number };

export function personRow(
  person: InsuredPerson,
  role: 'traveller' | 'dependent',
  index: number,
  ids: { headerId: number; detailId: number },
): PersonRow {
  return {
    policy_header_id: ids.headerId,
    policy_detail_id: ids.detailId,
    role,
    guid: person.guid,
    display_order: index + 1,
    is_primary: person.isPrimary ? 1 : 0,
    title: person.title ?? null,
    first_name: person.firstName,
    surname: person.surname,
    age: person.age ?? null,
    email_address: person.emailAddress ?? null,
    land_line_phone_number: person.landLinePhoneNumber ?? null,
    mobile_number: person.mobileNumber ?? null,
    date_of_birth: person.dateOfBirth ?? null,
    travel_clear_json: person.travelClear ? json(person.travelClear) : null,
  };
}

/** The money rows of one transaction: premium, discount, each tax, donation and (changes only) each fee. */
export function financialRows(
  amounts: Pick<TransactionAmounts, 'premium' | 'discount' | 'taxes' | 'donation'> & {
    readonly fees?: TransactionAmounts['fees'];
  },
  ids: { headerId: number; detailId: number },
): MoneyRow[] {
  const row = (transactionTypeId: number, amountMinor: number, name: string | null = null): MoneyRow => ({
    policy_header_id: ids.headerId,
    policy_detail_id: ids.detailId,
    transaction_type_id: transactionTypeId,
    name,
    amount_minor: amountMinor,
  });
  return [
    row(TRANSACTION_TYPE.Premium, amounts.premium),
    row(TRANSACTION_TYPE.Discount, amounts.discount),
    ...amounts.taxes.map((tax) => row(TRANSACTION_TYPE.Tax, tax.amount, tax.name)),
    row(TRANSACTION_TYPE.Donation, amounts.donation),
    ...(amounts.fees ?? []).map((fee) => row(TRANSACTION_TYPE.Fee, fee.amount, fee.name)),
  ];
}

export function headerAndDetailRows(
  request: PolicyIssueRequest,
  decision: IssueDecision,
): { header: HeaderRow; detail: DetailRow } {
  const { currency, ...plan } = request.plan;
  const at = decision.issuedAt;
  const user = request.createdByUserId;
  const header = {
    policy_number: decision.policyNumber,
    brand_code: request.brandCode,
    partner_id: request.partnerId,
    customer_user_id: request.customerUserId,
    quote_id: request.quoteId,
    plan_json: json(plan),
    currency_json: json(currency),
    status_id: POLICY_STATUS.Active,
    status: 'Active',
    sequence_number: 1,
    presentation_time_zone_code: request.presentationTimeZoneCode,
    destination_region: request.destinations.region ?? null,
    destination_codes_json: json(request.destinations.codes),
    destination_names_json: json(request.destinations.names),
    display_destination_description: request.destinations.displayDescription ?? null,
    reference_policy_wording_id: request.referencePolicyWordingId ?? null,
    regulatory_wording_translation_name: request.regulatoryWordingTranslationName ?? null,
    binder_id: request.binderId ?? null,
    excess_minor: request.excessMinor,
    external_memberships_json: json(request.externalMemberships),
    policy_document_access_guid: decision.policyDocumentAccessGuid,
    booking_reference: request.bookingReference ?? null,
    created_at: at,
    created_by_user_id: user,
    updated_at: at,
    updated_by_user_id: user,
  } satisfies HeaderRow;
  const detail = {
    sequence_number: 1,
    policy_detail_number: decision.policyDetailNumber,
    action_type_id: ACTION_TYPE_IDS.Purchase,
    action_type: 'Purchase',
    status_id: request.isAuthorised === true ? DETAIL_STATUS.Authorised : DETAIL_STATUS.Active,
    status: request.isAuthorised === true ? 'Authorised' : 'Active',
    ip_address: request.client.ipAddress ?? null,
    ip_address_country: request.client.ipAddressCountry ?? null,
    user_agent: request.client.userAgent ?? null,
    departure_date: request.departureDate,
    cover_end_date: request.coverEndDate,
    address_json: json(request.homeAddress),
    specified_items_json: json(request.specifiedItems),
    adventure_level: request.adventure?.level ?? null,
    adventure_activities_json: json(request.adventure?.activities ?? []),
    payment_reference: request.paymentReference ?? null,
    payment_method: request.paymentMethod ?? 'CARD',
    created_at: at,
    created_by_user_id: user,
    updated_at: at,
    updated_by_user_id: user,
  } satisfies DetailRow;
  return { header, detail };
}

export function childRows(request: PolicyIssueRequest, ids: PolicyIds) {
  const people = [
    ...request.travellers.map((p, i) => personRow(p, 'traveller', i, ids)),
    ...request.dependents.map((p, i) => personRow(p, 'dependent', i, ids)),
  ];
  const options = request.options.map((option, i): OptionRow => ({
    policy_header_id: ids.headerId,
    policy_detail_id: ids.detailId,
    plan_id: request.plan.planId,
    option_type_id: option.optionTypeId,
    name: option.name,
    description: option.description ?? null,
    display_order: option.displayOrder ?? i + 1,
  }));
  const money = financialRows(request.amounts, ids);
  return { people, options, money };
}
