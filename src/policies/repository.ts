import { sql, type Insertable, type OnConflictBuilder, type QueryCreator } from 'kysely';
import type { Database, Tx } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { jsonRowColumns } from '../db/json-row.js';
import { reusableInsert, reusableQuery } from '../db/reusable-query.js';
import type { InsuredPerson, PolicyIssueRequest } from './issue-request.js';
import { ACTION_TYPE_IDS, POLICY_STATUS, TRANSACTION_TYPE, type IssueDecision } from './model.js';
import { numberFrom, type CounterKey, type NumberTemplate } from './policy-number.js';
import type { PolicyDetailTable, PolicyFinancialValueTable, PolicyHeaderTable, PolicyOptionTable, PolicyTravellerTable } from './tables.js';

export { findPolicy } from './repository-read.js';

const json = (value: unknown) => JSON.stringify(value);

/** The first policy of a counter key inserts 1; every later one increments the row it conflicts with. */
const nextOnConflict = (oc: OnConflictBuilder<Database, 'policy_number_counter'>) =>
  oc.columns(['prefix', 'country', 'year']).doUpdateSet({ last_value: sql<number>`${sql.ref('policy_number_counter.last_value')} + 1` });

/**
 * Takes the next counter value of `key` in one statement: the first policy of a key inserts 1,
 * every later one increments the row it conflicts with. The row stays locked until the caller's
 * transaction ends, so concurrent issuers (any process, either engine) queue and never share a value.
 */
async function nextPolicySequence(tx: Tx, key: CounterKey): Promise<number> {
  const [row] = (await takeCounterValue(tx, key)).rows;
  if (!row) throw new Error('policy number counter: no value returned');
  return row.last_value;
}

// The statements of an issue are built and compiled once per engine (db/reusable-query.ts):
// building and compiling them was ~10–25 µs each, per purchase.
const takeCounterValue = reusableQuery(['prefix', 'country', 'year'], (db, key: CounterKey) =>
  db.insertInto('policy_number_counter').values({ prefix: key.prefix, country: key.country, year: key.year, last_value: 1 }).onConflict(nextOnConflict).returning('last_value'),
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

// The columns each row brings (ids and numbers come from the statement that writes it on PostgreSQL).
const HEADER_COLUMNS = [
  'brand_code', 'partner_id', 'customer_user_id', 'quote_id', 'plan_json', 'currency_json', 'status_id', 'status', 'sequence_number',
  'presentation_time_zone_code', 'destination_region', 'destination_codes_json', 'destination_names_json', 'display_destination_description',
  'reference_policy_wording_id', 'regulatory_wording_translation_name', 'binder_id', 'excess_minor', 'external_memberships_json',
  'policy_document_access_guid', 'created_at', 'created_by_user_id', 'updated_at', 'updated_by_user_id',
] as const satisfies readonly Exclude<keyof PolicyHeaderTable, 'id' | 'policy_number'>[];
const DETAIL_COLUMNS = [
  'sequence_number', 'action_type_id', 'action_type', 'status_id', 'status', 'ip_address', 'ip_address_country', 'user_agent', 'departure_date',
  'cover_end_date', 'address_json', 'specified_items_json', 'adventure_level', 'adventure_activities_json', 'payment_reference', 'created_at',
  'created_by_user_id', 'updated_at', 'updated_by_user_id',
] as const satisfies readonly Exclude<keyof PolicyDetailTable, 'id' | 'policy_header_id' | 'policy_detail_number'>[];
const TRAVELLER_COLUMNS = [
  'role', 'guid', 'display_order', 'is_primary', 'title', 'first_name', 'surname', 'age', 'email_address', 'land_line_phone_number', 'mobile_number',
  'date_of_birth', 'travel_clear_json',
] as const satisfies readonly Exclude<keyof PolicyTravellerTable, 'id' | 'policy_header_id' | 'policy_detail_id'>[];
const OPTION_COLUMNS = ['plan_id', 'option_type_id', 'name', 'description', 'display_order'] as const satisfies readonly Exclude<
  keyof PolicyOptionTable,
  'id' | 'policy_header_id' | 'policy_detail_id'
>[];
const MONEY_COLUMNS = ['transaction_type_id', 'name', 'amount_minor'] as const satisfies readonly Exclude<
  keyof PolicyFinancialValueTable,
  // Per-option and per-person amounts come with amendments, never with a purchase.
  'id' | 'policy_header_id' | 'policy_detail_id' | 'option_type_id' | 'traveller_guid' | 'dependent_guid'
>[];
/** `true` only when `Listed` names every column of `Table` but `Unlisted`: a column added to a table must be added above. */
type Lists<Table, Unlisted extends keyof Table, Listed> = [Exclude<keyof Table, Unlisted | Listed>] extends [never] ? true : false;
export const COLUMN_LISTS_COMPLETE: [
  Lists<PolicyHeaderTable, 'id' | 'policy_number', (typeof HEADER_COLUMNS)[number]>,
  Lists<PolicyDetailTable, 'id' | 'policy_header_id' | 'policy_detail_number', (typeof DETAIL_COLUMNS)[number]>,
  Lists<PolicyTravellerTable, 'id' | 'policy_header_id' | 'policy_detail_id', (typeof TRAVELLER_COLUMNS)[number]>,
  Lists<PolicyOptionTable, 'id' | 'policy_header_id' | 'policy_detail_id', (typeof OPTION_COLUMNS)[number]>,
  Lists<PolicyFinancialValueTable, 'id' | 'policy_header_id' | 'policy_detail_id' | 'option_type_id' | 'traveller_guid' | 'dependent_guid', (typeof MONEY_COLUMNS)[number]>,
] = [true, true, true, true, true];

/** Every column is written (none left to its default), so each insert has one shape. */
type HeaderRow = Required<Omit<Insertable<PolicyHeaderTable>, 'id'>>;
type DetailRow = Required<Omit<Insertable<PolicyDetailTable>, 'id' | 'policy_header_id'>>;
type PersonRow = Required<Omit<Insertable<PolicyTravellerTable>, 'id'>>;
type OptionRow = Required<Omit<Insertable<PolicyOptionTable>, 'id'>>;
type MoneyRow = Pick<Required<Insertable<PolicyFinancialValueTable>>, 'policy_header_id' | 'policy_detail_id' | 'transaction_type_id' | 'name' | 'amount_minor'>;
type PolicyIds = { headerId: number; detailId: number };

/** Header then detail #1; undefined when the quote already has a policy (the header's quote id is unique). */
async function insertHeaderAndDetail(tx: Tx, header: HeaderRow, detail: DetailRow): Promise<PolicyIds | undefined> {
  const [inserted] = (await insertHeader(tx, header)).rows;
  if (!inserted) return undefined;
  const [row] = (await insertDetail(tx, Object.assign({ policy_header_id: inserted.id }, detail))).rows;
  if (!row) throw new Error('policy detail: no id returned');
  return { headerId: inserted.id, detailId: row.id };
}

// The separate statements (SQLite, where a statement costs no round trip), each compiled once;
// the child rows one multi-row insert per table, compiled once per row count.
const ID_COLUMNS = ['policy_header_id', 'policy_detail_id'] as const;
const insertHeader = reusableQuery(['policy_number', ...HEADER_COLUMNS], (db, header: HeaderRow) =>
  db.insertInto('policy_header').values(header).onConflict((oc) => oc.column('quote_id').doNothing()).returning('id'),
);
const insertDetail = reusableQuery(['policy_header_id', 'policy_detail_number', ...DETAIL_COLUMNS], (db, detail: DetailRow & { policy_header_id: number }) =>
  db.insertInto('policy_detail').values(detail).returning('id'),
);
const insertPeople = reusableInsert([...ID_COLUMNS, ...TRAVELLER_COLUMNS], (db, rows: PersonRow[]) => db.insertInto('policy_traveller').values(rows));
const insertOptions = reusableInsert([...ID_COLUMNS, ...OPTION_COLUMNS], (db, rows: OptionRow[]) => db.insertInto('policy_option').values(rows));
const insertMoney = reusableInsert([...ID_COLUMNS, ...MONEY_COLUMNS], (db, rows: MoneyRow[]) => db.insertInto('policy_financial_value').values(rows));

/**
 * Writes the header, detail #1 (a purchase) and everything the purchase bought, numbered by the
 * caller (SQLite; PostgreSQL issues with `insertNumberedPolicy`, one round trip). Undefined when
 * the quote already has a policy (its header is unique per quote: no separate look-up first);
 * the caller throws, which rolls the transaction back.
 */
async function insertPurchasedPolicy(
  tx: Tx,
  request: PolicyIssueRequest,
  decision: IssueDecision,
): Promise<{ headerId: number; detailId: number } | undefined> {
  const { header, detail } = headerAndDetailRows(request, decision);
  const ids = await insertHeaderAndDetail(tx, header, detail);
  if (!ids) return undefined;
  const { people, options, money } = childRows(request, ids);
  await insertPeople(tx, people);
  if (options.length > 0) await insertOptions(tx, options);
  await insertMoney(tx, money);
  return ids;
}

function headerAndDetailRows(request: PolicyIssueRequest, decision: IssueDecision): { header: HeaderRow; detail: DetailRow } {
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
  return { header, detail };
}

function childRows(request: PolicyIssueRequest, ids: PolicyIds) {
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
  return { people, options, money };
}

/** What numbering and writing a purchased policy needs beyond the request. */
export interface NumberedIssue {
  readonly counter: CounterKey;
  readonly number: NumberTemplate;
  /** What follows the policy number in detail #1's number. */
  readonly detailSuffix: string;
  readonly policyDocumentAccessGuid: string;
  readonly issuedAt: string;
}


/** The values of the PostgreSQL policy writes: the counter's key, the number's text around it, rows as JSON. */
export type PolicyWriteValues = {
  prefix: string;
  country: string;
  year: number;
  before: string;
  width: number;
  after: string;
  detailSuffix: string;
  header: string;
  detail: string;
  people: string;
  options: string;
  money: string;
};
export const POLICY_WRITE_NAMES = ['prefix', 'country', 'year', 'before', 'width', 'after', 'detailSuffix', 'header', 'detail', 'people', 'options', 'money'] as const satisfies readonly (keyof PolicyWriteValues)[];

/** The values `withPolicyWrites` binds for `request` under `issue` (ids and numbers come from the statement). */
export function policyWriteValues(request: PolicyIssueRequest, issue: NumberedIssue): PolicyWriteValues {
  const { header, detail } = headerAndDetailRows(request, { policyNumber: '', policyDetailNumber: '', policyDocumentAccessGuid: issue.policyDocumentAccessGuid, issuedAt: issue.issuedAt });
  const { people, options, money } = childRows(request, { headerId: 0, detailId: 0 });
  return {
    ...issue.counter,
    ...issue.number,
    detailSuffix: issue.detailSuffix,
    header: json(header),
    detail: json(detail),
    people: json(people),
    options: json(options),
    money: json(money),
  };
}

const childrenFrom = (table: string, columns: readonly string[], rows: string) =>
  sql`select detail.policy_header_id, detail.id, ${jsonRowColumns(columns)} from detail, json_populate_recordset(null::${sql.table(table)}, ${rows}::json) as r`;

/** A statement whose `gate` CTE has one row when the policy may be written, none when it may not. */
export type GatedQueryCreator = QueryCreator<Database & { gate: { open: number } }>;

/**
 * PostgreSQL: the CTEs that take the counter and write the whole policy (header, detail #1,
 * travellers, options, money), for each row of `gate` (one, or none: then nothing is written and
 * no number is taken). The number is rendered in SQL from the template (the digits zero-padded,
 * never cut). Rows travel as JSON read with the tables' own row types
 * (`json_populate_record[set]`), which keeps the SQL text the same for any number of travellers
 * and options: one prepared statement. A header whose quote has a policy already is skipped
 * (`header`, `detail` and what follows come back empty).
 */
export function withPolicyWrites(qc: GatedQueryCreator, v: PolicyWriteValues) {
  const digits = sql`cast(counter.last_value as text)`;
  return qc
    .with('counter', (q) =>
      q
        .insertInto('policy_number_counter')
        .columns(['prefix', 'country', 'year', 'last_value'])
        // A SELECT's parameters have no column to take their type from: cast each.
        .expression(sql`select cast(${v.prefix} as text), cast(${v.country} as text), cast(${v.year} as integer), 1 from gate`)
        .onConflict(nextOnConflict)
        .returning('last_value'),
    )
    .with('header', (q) =>
      q
        .insertInto('policy_header')
        .columns(['policy_number', ...HEADER_COLUMNS])
        .expression(
          sql`select ${v.before} || lpad(${digits}, greatest(${v.width}::int, length(${digits})), '0') || ${v.after}, ${jsonRowColumns(HEADER_COLUMNS)}
            from counter, json_populate_record(null::policy_header, ${v.header}::json) as r`,
        )
        .onConflict((oc) => oc.column('quote_id').doNothing())
        .returning(['id', 'policy_number']),
    )
    .with('detail', (q) =>
      q
        .insertInto('policy_detail')
        .columns(['policy_header_id', 'policy_detail_number', ...DETAIL_COLUMNS])
        .expression(
          sql`select header.id, header.policy_number || ${v.detailSuffix}, ${jsonRowColumns(DETAIL_COLUMNS)}
            from header, json_populate_record(null::policy_detail, ${v.detail}::json) as r`,
        )
        .returning(['id', 'policy_header_id']),
    )
    .with('people', (q) =>
      q.insertInto('policy_traveller').columns(['policy_header_id', 'policy_detail_id', ...TRAVELLER_COLUMNS]).expression(childrenFrom('policy_traveller', TRAVELLER_COLUMNS, v.people)),
    )
    .with('options', (q) =>
      q.insertInto('policy_option').columns(['policy_header_id', 'policy_detail_id', ...OPTION_COLUMNS]).expression(childrenFrom('policy_option', OPTION_COLUMNS, v.options)),
    )
    .with('money', (q) =>
      q.insertInto('policy_financial_value').columns(['policy_header_id', 'policy_detail_id', ...MONEY_COLUMNS]).expression(childrenFrom('policy_financial_value', MONEY_COLUMNS, v.money)),
    );
}

// Built and compiled once (the statement is fixed; building it per call cost ~140 µs of CPU).
// Always open: the caller's transaction decides (a second policy of a quote rolls it back).
const numberedPolicyStatement = reusableQuery(POLICY_WRITE_NAMES, (db, v: PolicyWriteValues) =>
  withPolicyWrites(
    db.with('gate', (qc) => qc.selectNoFrom(sql<number>`1`.as('open'))),
    v,
  )
    .selectFrom('detail')
    .innerJoin('header', 'header.id', 'detail.policy_header_id')
    .select(['detail.policy_header_id as headerId', 'detail.id as detailId', 'header.policy_number as policyNumber']),
);

/**
 * PostgreSQL: takes the counter and writes the whole policy in one statement, so the counter's
 * row lock (held to the commit, for gapless numbers) is taken by one round trip instead of four.
 * Undefined when the quote already has a policy: the counter was taken regardless, so the
 * caller must throw to roll it back.
 */
async function insertNumberedPolicy(tx: Tx, request: PolicyIssueRequest, issue: NumberedIssue): Promise<NumberedPolicy | undefined> {
  const { rows } = await numberedPolicyStatement(tx, policyWriteValues(request, issue));
  return rows[0];
}

export type NumberedPolicy = PolicyIds & { policyNumber: string };

/**
 * Takes the next number of `issue.counter` and writes the policy under it: header, detail #1
 * and everything the purchase bought. Undefined when the quote already has a policy; the caller
 * must throw, which rolls the counter back with it (numbering stays gapless). PostgreSQL does it
 * in one statement (a round trip each, and the counter's lock held for less); SQLite, where a
 * statement costs no round trip, in separate ones.
 */
export async function issueNumberedPolicy(tx: Tx, request: PolicyIssueRequest, issue: NumberedIssue): Promise<NumberedPolicy | undefined> {
  if (dialectOf(tx) === 'postgres') return insertNumberedPolicy(tx, request, issue);
  const policyNumber = numberFrom(issue.number, await nextPolicySequence(tx, issue.counter));
  const { policyDocumentAccessGuid, issuedAt } = issue;
  const ids = await insertPurchasedPolicy(tx, request, { policyNumber, policyDetailNumber: policyNumber + issue.detailSuffix, policyDocumentAccessGuid, issuedAt });
  return ids && { ...ids, policyNumber };
}
