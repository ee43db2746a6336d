import { sql, type Insertable } from 'kysely';
import type { Tx } from '../db/database.js';
import { castSelection } from '../db/cast-selection.js';
import { dialectOf } from '../db/dialect.js';
import { reusableInsert, reusableQuery } from '../db/reusable-query.js';
import type { InsuredPerson, PolicyIssueRequest } from './issue-request.js';
import { ACTION_TYPE_IDS, POLICY_STATUS, TRANSACTION_TYPE, type IssueDecision } from './model.js';
import type { CounterKey } from './number-format.js';
import type { PolicyDetailTable, PolicyFinancialValueTable, PolicyHeaderTable, PolicyOptionTable, PolicyTravellerTable } from './tables.js';

export { findPolicy } from './repository-read.js';

const json = (value: unknown) => JSON.stringify(value);

/**
 * Takes the next counter value of `key` in one statement: the first policy of a key inserts 1,
 * every later one increments the row it conflicts with. The row stays locked until the caller's
 * transaction ends, so concurrent issuers (any process, either engine) queue and never share a value.
 */
export async function nextPolicySequence(tx: Tx, key: CounterKey): Promise<number> {
  const { rows } = await takeCounterValue(tx, key);
  const [row] = rows;
  if (!row) throw new Error('policy number counter: no value returned');
  return row.last_value;
}

// The statements of an issue are built and compiled once per engine (db/reusable-query.ts):
// building and compiling them was ~10–25 µs each, per purchase.
const takeCounterValue = reusableQuery(['prefix', 'country', 'year'], (db, key: CounterKey) =>
  db
    .insertInto('policy_number_counter')
    .values({ prefix: key.prefix, country: key.country, year: key.year, last_value: 1 })
    .onConflict((oc) =>
      oc.columns(['prefix', 'country', 'year']).doUpdateSet({ last_value: sql<number>`${sql.ref('policy_number_counter.last_value')} + 1` }),
    )
    .returning('last_value'),
);

function personRow(
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

function financialRows(request: PolicyIssueRequest, ids: { headerId: number; detailId: number }): MoneyRow[] {
  const row = (transactionTypeId: number, amountMinor: number, name: string | null = null): MoneyRow => ({
    policy_header_id: ids.headerId,
    policy_detail_id: ids.detailId,
    transaction_type_id: transactionTypeId,
    name,
    amount_minor: amountMinor,
  });
  const { amounts } = request;
  return [
    row(TRANSACTION_TYPE.Premium, amounts.premium),
    row(TRANSACTION_TYPE.Discount, amounts.discount),
    ...amounts.taxes.map((tax) => row(TRANSACTION_TYPE.Tax, tax.amount, tax.name)),
    row(TRANSACTION_TYPE.Donation, amounts.donation),
  ];
}

/** Every column is written (none left to its default), so each insert has one shape. */
type HeaderRow = Required<Omit<Insertable<PolicyHeaderTable>, 'id'>>;
type DetailRow = Required<Omit<Insertable<PolicyDetailTable>, 'id' | 'policy_header_id'>>;
type PersonRow = Required<Omit<Insertable<PolicyTravellerTable>, 'id'>>;
type OptionRow = Required<Omit<Insertable<PolicyOptionTable>, 'id'>>;
type MoneyRow = Pick<Required<Insertable<PolicyFinancialValueTable>>, 'policy_header_id' | 'policy_detail_id' | 'transaction_type_id' | 'name' | 'amount_minor'>;

const HEADER_COLUMNS = [
  'policy_number', 'brand_code', 'partner_id', 'customer_user_id', 'quote_id', 'plan_json', 'currency_json', 'status_id', 'status',
  'sequence_number', 'presentation_time_zone_code', 'destination_region', 'destination_codes_json', 'destination_names_json',
  'display_destination_description', 'reference_policy_wording_id', 'regulatory_wording_translation_name', 'binder_id', 'excess_minor',
  'external_memberships_json', 'policy_document_access_guid', 'created_at', 'created_by_user_id', 'updated_at', 'updated_by_user_id',
] as const satisfies readonly (keyof HeaderRow)[];
const DETAIL_COLUMNS = [
  'sequence_number', 'policy_detail_number', 'action_type_id', 'action_type', 'status_id', 'status', 'ip_address', 'ip_address_country',
  'user_agent', 'departure_date', 'cover_end_date', 'address_json', 'specified_items_json', 'adventure_level', 'adventure_activities_json',
  'payment_reference', 'created_at', 'created_by_user_id', 'updated_at', 'updated_by_user_id',
] as const satisfies readonly (keyof DetailRow)[];
const PERSON_COLUMNS = [
  'policy_header_id', 'policy_detail_id', 'role', 'guid', 'display_order', 'is_primary', 'title', 'first_name', 'surname', 'age',
  'email_address', 'land_line_phone_number', 'mobile_number', 'date_of_birth', 'travel_clear_json',
] as const satisfies readonly (keyof PersonRow)[];
const OPTION_COLUMNS = [
  'policy_header_id', 'policy_detail_id', 'plan_id', 'option_type_id', 'name', 'description', 'display_order',
] as const satisfies readonly (keyof OptionRow)[];
const MONEY_COLUMNS = ['policy_header_id', 'policy_detail_id', 'transaction_type_id', 'name', 'amount_minor'] as const satisfies readonly (keyof MoneyRow)[];

// The child rows of a policy, one multi-row insert per table, compiled once per row count (SQLite).
const insertPeople = reusableInsert(PERSON_COLUMNS, (db, rows: PersonRow[]) => db.insertInto('policy_traveller').values(rows));
const insertOptions = reusableInsert(OPTION_COLUMNS, (db, rows: OptionRow[]) => db.insertInto('policy_option').values(rows));
const insertMoney = reusableInsert(MONEY_COLUMNS, (db, rows: MoneyRow[]) => db.insertInto('policy_financial_value').values(rows));
type PolicyIds = { headerId: number; detailId: number };

/** Header then detail #1; undefined when the quote already has a policy (the header's quote id is unique). */
async function insertHeaderAndDetail(tx: Tx, header: HeaderRow, detail: DetailRow): Promise<PolicyIds | undefined> {
  const [inserted] = (await insertHeader(tx, header)).rows;
  if (!inserted) return undefined;
  const [row] = (await insertDetail(tx, Object.assign({ policy_header_id: inserted.id }, detail))).rows;
  if (!row) throw new Error('policy detail: no id returned');
  return { headerId: inserted.id, detailId: row.id };
}

const insertHeader = reusableQuery(HEADER_COLUMNS, (db, header: HeaderRow) =>
  db.insertInto('policy_header').values(header).onConflict((oc) => oc.column('quote_id').doNothing()).returning('id'),
);
const insertDetail = reusableQuery(['policy_header_id', ...DETAIL_COLUMNS], (db, detail: DetailRow & { policy_header_id: number }) =>
  db.insertInto('policy_detail').values(detail).returning('id'),
);

/** The same in one PostgreSQL statement: the detail is inserted from the header's RETURNING (none on a conflict). */
async function insertHeaderAndDetailInOne(tx: Tx, header: HeaderRow, detail: DetailRow): Promise<PolicyIds | undefined> {
  const row = await tx
    .with('header', (db) => db.insertInto('policy_header').values(header).onConflict((oc) => oc.column('quote_id').doNothing()).returning('id'))
    .insertInto('policy_detail')
    .columns(['policy_header_id', ...(Object.keys(detail) as (keyof DetailRow)[])])
    .expression((eb) => eb.selectFrom('header').select((sb) => [sb.ref('header.id').as('policy_header_id'), ...castSelection(detail)]))
    .returning(['id', 'policy_header_id'])
    .executeTakeFirst();
  return row ? { headerId: row.policy_header_id, detailId: row.id } : undefined;
}

/**
 * Writes the header, detail #1 (a purchase) and everything the purchase bought. Undefined when
 * the quote already has a policy (its header is unique per quote: no separate look-up first);
 * the caller throws, which rolls the transaction back.
 */
export async function insertPurchasedPolicy(
  tx: Tx,
  request: PolicyIssueRequest,
  decision: IssueDecision,
): Promise<{ headerId: number; detailId: number } | undefined> {
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
    status_id: POLICY_STATUS.Active,
    status: 'Active',
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
    created_at: at,
    created_by_user_id: user,
    updated_at: at,
    updated_by_user_id: user,
  } satisfies DetailRow;
  const ids = dialectOf(tx) === 'postgres' ? await insertHeaderAndDetailInOne(tx, header, detail) : await insertHeaderAndDetail(tx, header, detail);
  if (!ids) return undefined;

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
  const money = financialRows(request, ids);
  if (dialectOf(tx) === 'postgres') {
    // One round trip for the three child tables (each is a round trip on PostgreSQL).
    const withPeople = tx.with('people', (db) => db.insertInto('policy_traveller').values(people));
    if (options.length > 0) {
      await withPeople
        .with('options', (db) => db.insertInto('policy_option').values(options))
        .insertInto('policy_financial_value')
        .values(money)
        .execute();
    } else {
      await withPeople.insertInto('policy_financial_value').values(money).execute();
    }
    return ids;
  }
  await insertPeople(tx, people);
  if (options.length > 0) await insertOptions(tx, options);
  await insertMoney(tx, money);
  return ids;
}
