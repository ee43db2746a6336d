import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import { sql, type Selectable } from 'kysely';
import type { BrandCode } from '../kernel/brands.js';
import type { Executor } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { reusableQuery } from '../db/reusable-query.js';
import { jsonRows, jsonRowsOf } from './child-rows-json.js';
import type { PolicyActionType } from './schemas-detail.js';
import type { DetailRecord, FinancialRecord, OptionRecord, PersonRecord, PolicyRecord } from './model.js';
import type {
  PolicyDetailTable,
  PolicyFinancialValueTable,
  PolicyHeaderTable,
  PolicyOptionTable,
  PolicyTravellerTable,
} from './tables.js';

type HeaderRow = Selectable<PolicyHeaderTable>;
type DetailRow = Selectable<PolicyDetailTable>;
type PersonRow = Selectable<PolicyTravellerTable>;

/** JSON text we wrote ourselves; its shape is the one the insert serialised. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it stored
const parse = <T>(text: string): T => JSON.parse(text) as T;
const some = <T>(value: T | null): T | undefined => value ?? undefined;

export interface PolicyLookup {
  readonly policyNumber: string;
  readonly brandCode: BrandCode;
  /** Only the partner that sold the policy sees it. */
  readonly partnerId: number;
}

type OptionRow = Selectable<PolicyOptionTable>;
type MoneyRow = Selectable<PolicyFinancialValueTable>;

const DETAIL_COLUMNS = [
  'id',
  'sequence_number',
  'policy_detail_number',
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
] as const satisfies readonly (keyof DetailRow)[];
const PERSON_COLUMNS = [
  'id',
  'role',
  'guid',
  'display_order',
  'is_primary',
  'title',
  'first_name',
  'surname',
  'age',
  'date_of_birth',
  'email_address',
  'land_line_phone_number',
  'mobile_number',
  'travel_clear_json',
] as const satisfies readonly (keyof PersonRow)[];
const OPTION_COLUMNS = [
  'id',
  'plan_id',
  'option_type_id',
  'name',
  'description',
  'display_order',
] as const satisfies readonly (keyof OptionRow)[];
const MONEY_COLUMNS = [
  'id',
  'transaction_type_id',
  'name',
  'amount_minor',
  'option_type_id',
  'traveller_guid',
  'dependent_guid',
] as const satisfies readonly (keyof MoneyRow)[];

type Picked<Row, Columns extends readonly (keyof Row)[]> = Pick<Row, Columns[number]>;
type DetailPart = Picked<DetailRow, typeof DETAIL_COLUMNS>;
type PersonPart = Picked<PersonRow, typeof PERSON_COLUMNS>;
type OptionPart = Picked<OptionRow, typeof OPTION_COLUMNS>;
type MoneyPart = Picked<MoneyRow, typeof MONEY_COLUMNS>;

const byDisplayOrder = (a: { display_order: number; id: number }, b: { display_order: number; id: number }) =>
  a.display_order - b.display_order || a.id - b.id;

/** The query of `findPolicy`, built once per engine (`reusableQuery`). */
export const policyQuery = reusableQuery(['policyNumber'], (db, values: { policyNumber: string }) => {
  const dialect = dialectOf(db);
  return (
    db
      .selectFrom('policy_header as h')
      .innerJoin('policy_detail as d', 'd.policy_header_id', 'h.id')
      .selectAll('h')
      .select(DETAIL_COLUMNS.map((c) => sql.ref(`d.${c}`).as(`d_${c}`)))
      .select([
        jsonRows(dialect, 'policy_traveller', PERSON_COLUMNS, { column: 'policy_detail_id', equals: 'd.id' }).as(
          'd_people',
        ),
        jsonRows(dialect, 'policy_option', OPTION_COLUMNS, { column: 'policy_detail_id', equals: 'd.id' }).as(
          'd_options',
        ),
        jsonRows(dialect, 'policy_financial_value', MONEY_COLUMNS, { column: 'policy_detail_id', equals: 'd.id' }).as(
          'd_money',
        ),
      ])
      // By the unique number alone; the owner is checked on the answer (see findPolicy).
      .where('h.policy_number', '=', values.policyNumber)
      .orderBy('d.sequence_number')
  );
});

/**
 * One policy with every detail, oldest first, in one query: the header joined to its details,
 * each detail carrying its travellers, options and money as JSON arrays (`jsonRows`). Every row
 * is found through an index whatever the number of policies (policy number is unique; details
 * by header id and sequence; children by detail id). On PostgreSQL each query is a round trip
 * and a socket write on both sides: five queries per read cost more CPU than the rest of it.
 */
export async function findPolicy(db: Executor, lookup: PolicyLookup): Promise<PolicyRecord | undefined> {
  const { rows } = await policyQuery(db, { policyNumber: lookup.policyNumber });
  const [first] = rows;
  // Only the partner that sold it, on its brand. Checked here, not in the query: with the owner in
  // the where clause PostgreSQL can plan a fresh table's read on the partner index instead of the
  // unique number (docs/performance.md, "Index choice").
  if (!first || first.partner_id !== lookup.partnerId || first.brand_code !== lookup.brandCode) return undefined;
  return toPolicy(
    first,
    rows.map((joined) => {
      const row = Object.fromEntries(
        DETAIL_COLUMNS.map((c) => [c, (joined as Record<string, unknown>)[`d_${c}`]]),
      ) as DetailPart;
      const people = jsonRowsOf<PersonPart>(joined.d_people).sort(byDisplayOrder);
      return toDetail(row, {
        travellers: people.filter((p) => p.role === 'traveller').map(toPerson),
        dependents: people.filter((p) => p.role === 'dependent').map(toPerson),
        options: jsonRowsOf<OptionPart>(joined.d_options)
          .sort(byDisplayOrder)
          .map((o): OptionRecord => ({
            id: o.id,
            planId: o.plan_id,
            optionTypeId: o.option_type_id,
            name: o.name,
            description: some(o.description),
            displayOrder: o.display_order,
          })),
        financials: jsonRowsOf<MoneyPart>(joined.d_money)
          .sort((a, b) => a.id - b.id)
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

function toPerson(row: PersonPart): PersonRecord {
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

function toDetail(row: DetailPart, children: Children): DetailRecord {
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
    paymentMethod: row.payment_method as PaymentMethod,
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

/** The number of the policy bought with `quoteId` (one per quote), if any; no owner check (the outbox worker). */
export async function policyNumberOfQuote(db: Executor, quoteId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('policy_header')
    .select('policy_number')
    .where('quote_id', '=', quoteId)
    .executeTakeFirst();
  return row?.policy_number;
}

/** Each sold quote's cover end (its policy's latest transaction's `cover_end_date`); unsold quotes are absent. */
export async function coverEndsOfQuotes(db: Executor, quoteIds: readonly string[]): Promise<Map<string, string>> {
  if (quoteIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('policy_header as h')
    .innerJoin('policy_detail as d', 'd.policy_header_id', 'h.id')
    .select(['h.quote_id', 'd.cover_end_date', 'd.sequence_number'])
    .where('h.quote_id', 'in', [...quoteIds])
    .orderBy('d.sequence_number')
    .execute();
  return new Map(rows.map((r) => [r.quote_id, r.cover_end_date]));
}
