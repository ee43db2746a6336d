// The policy read as it was before it became one query (five, one per table), kept as the
// reference the one-query read is checked against (read-equivalence.test.ts).
import type { Selectable } from 'kysely';
import type { BrandCode } from '../../src/kernel/brands.js';
import type { Executor } from '../../src/db/database.js';
import type { PolicyLookup } from '../../src/policies/repository-read.js';
import type { PolicyActionType } from '../../src/policies/schemas-detail.js';
import type {
  DetailRecord,
  FinancialRecord,
  OptionRecord,
  PersonRecord,
  PolicyRecord,
} from '../../src/policies/model.js';
import type { PolicyDetailTable, PolicyHeaderTable, PolicyTravellerTable } from '../../src/policies/tables.js';

type HeaderRow = Selectable<PolicyHeaderTable>;
type DetailRow = Selectable<PolicyDetailTable>;
type PersonRow = Selectable<PolicyTravellerTable>;

/** JSON text we wrote ourselves; its shape is the one the insert serialised. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it stored
const parse = <T>(text: string): T => JSON.parse(text) as T;
const some = <T>(value: T | null): T | undefined => value ?? undefined;

/**
 * One policy with every detail, oldest first: five indexed lookups whatever the number of
 * policies (policy number is unique; children are found by detail id).
 */
export async function findPolicyFiveQueries(db: Executor, lookup: PolicyLookup): Promise<PolicyRecord | undefined> {
  const header = await db
    .selectFrom('policy_header')
    .selectAll()
    .where('policy_number', '=', lookup.policyNumber)
    .where('partner_id', '=', lookup.partnerId)
    .where('brand_code', '=', lookup.brandCode)
    .executeTakeFirst();
  if (!header) return undefined;
  const details = await db
    .selectFrom('policy_detail')
    .selectAll()
    .where('policy_header_id', '=', header.id)
    .orderBy('sequence_number')
    .execute();
  const detailIds = details.map((d) => d.id);
  if (detailIds.length === 0) return undefined;
  const [people, options, money] = await Promise.all([
    db
      .selectFrom('policy_traveller')
      .selectAll()
      .where('policy_detail_id', 'in', detailIds)
      .orderBy('display_order')
      .execute(),
    db
      .selectFrom('policy_option')
      .selectAll()
      .where('policy_detail_id', 'in', detailIds)
      .orderBy('display_order')
      .execute(),
    db
      .selectFrom('policy_financial_value')
      .selectAll()
      .where('policy_detail_id', 'in', detailIds)
      .orderBy('id')
      .execute(),
  ]);
  return toPolicy(
    header,
    details.map((row) => {
      const mine = people.filter((p) => p.policy_detail_id === row.id);
      return toDetail(row, {
        travellers: mine.filter((p) => p.role === 'traveller').map(toPerson),
        dependents: mine.filter((p) => p.role === 'dependent').map(toPerson),
        options: options
          .filter((o) => o.policy_detail_id === row.id)
          .map((o): OptionRecord => ({
            id: o.id,
            planId: o.plan_id,
            optionTypeId: o.option_type_id,
            name: o.name,
            description: some(o.description),
            displayOrder: o.display_order,
          })),
        financials: money
          .filter((f) => f.policy_detail_id === row.id)
          .map((f): FinancialRecord => ({
            transactionTypeId: f.transaction_type_id,
            name: some(f.name),
            amountMinor: f.amount_minor,
            optionTypeId: some(f.option_type_id),
            travellerGuid: some(f.traveller_guid),
            dependentGuid: some(f.dependent_guid),
          })),
      });
    }),
  );
}

function toPerson(row: PersonRow): PersonRecord {
  return {
    id: row.id,
    guid: row.guid,
    displayOrder: row.display_order,
    isPrimary: row.is_primary === 1,
    title: some(row.title),
    firstName: row.first_name,
    surname: row.surname,
    age: some(row.age),
    dateOfBirth: some(row.date_of_birth),
    emailAddress: some(row.email_address),
    landLinePhoneNumber: some(row.land_line_phone_number),
    mobileNumber: some(row.mobile_number),
    travelClear: row.travel_clear_json ? parse(row.travel_clear_json) : undefined,
  };
}

type Children = Pick<DetailRecord, 'travellers' | 'dependents' | 'options' | 'financials'>;

function toDetail(row: DetailRow, children: Children): DetailRecord {
  const activities = parse<string[]>(row.adventure_activities_json);
  return {
    id: row.id,
    sequenceNumber: row.sequence_number,
    policyDetailNumber: row.policy_detail_number,
    actionType: row.action_type as PolicyActionType,
    statusId: row.status_id,
    status: row.status,
    client: {
      ipAddress: some(row.ip_address),
      ipAddressCountry: some(row.ip_address_country),
      userAgent: some(row.user_agent),
    },
    departureDate: row.departure_date,
    coverEndDate: row.cover_end_date,
    address: parse(row.address_json),
    specifiedItems: parse(row.specified_items_json),
    adventure:
      row.adventure_level !== null || activities.length > 0
        ? { level: some(row.adventure_level), activities }
        : undefined,
    paymentReference: some(row.payment_reference),
    paymentMethod: row.payment_method as DetailRecord['paymentMethod'],
    audit: {
      createdAt: row.created_at,
      createdByUserId: row.created_by_user_id,
      updatedAt: row.updated_at,
      updatedByUserId: row.updated_by_user_id,
    },
    ...children,
  };
}

function toPolicy(row: HeaderRow, details: DetailRecord[]): PolicyRecord {
  return {
    id: row.id,
    policyNumber: row.policy_number,
    brandCode: row.brand_code as BrandCode,
    partnerId: row.partner_id,
    customerUserId: row.customer_user_id,
    quoteId: row.quote_id,
    plan: parse(row.plan_json),
    currency: parse(row.currency_json),
    statusId: row.status_id,
    status: row.status,
    sequenceNumber: row.sequence_number,
    presentationTimeZoneCode: row.presentation_time_zone_code,
    destinations: {
      codes: parse(row.destination_codes_json),
      names: parse(row.destination_names_json),
      region: some(row.destination_region),
      displayDescription: some(row.display_destination_description),
    },
    referencePolicyWordingId: some(row.reference_policy_wording_id),
    regulatoryWordingTranslationName: some(row.regulatory_wording_translation_name),
    binderId: some(row.binder_id),
    excessMinor: row.excess_minor,
    externalMemberships: parse(row.external_memberships_json),
    policyDocumentAccessGuid: row.policy_document_access_guid,
    audit: {
      createdAt: row.created_at,
      createdByUserId: row.created_by_user_id,
      updatedAt: row.updated_at,
      updatedByUserId: row.updated_by_user_id,
    },
    details,
  };
}
