import { sql, type Insertable } from 'kysely';
import type { Tx } from '../db/database.js';
import { castSelection } from '../db/cast-selection.js';
import { dialectOf } from '../db/dialect.js';
import type { InsuredPerson, PolicyIssueRequest } from './issue-request.js';
import { ACTION_TYPE_IDS, POLICY_STATUS, TRANSACTION_TYPE, type IssueDecision } from './model.js';
import type { CounterKey } from './number-format.js';
import type { PolicyDetailTable, PolicyFinancialValueTable, PolicyHeaderTable, PolicyTravellerTable } from './tables.js';

export { findPolicy } from './repository-read.js';

const json = (value: unknown) => JSON.stringify(value);

/**
 * Takes the next counter value of `key` in one statement: the first policy of a key inserts 1,
 * every later one increments the row it conflicts with. The row stays locked until the caller's
 * transaction ends, so concurrent issuers (any process, either engine) queue and never share a value.
 */
export async function nextPolicySequence(tx: Tx, key: CounterKey): Promise<number> {
  const row = await tx
    .insertInto('policy_number_counter')
    .values({ prefix: key.prefix, country: key.country, year: key.year, last_value: 1 })
    .onConflict((oc) =>
      oc.columns(['prefix', 'country', 'year']).doUpdateSet({ last_value: sql<number>`${sql.ref('policy_number_counter.last_value')} + 1` }),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return row.last_value;
}

function personRow(
  person: InsuredPerson,
  role: 'traveller' | 'dependent',
  index: number,
  ids: { headerId: number; detailId: number },
): Insertable<PolicyTravellerTable> {
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

function financialRows(request: PolicyIssueRequest, ids: { headerId: number; detailId: number }): Insertable<PolicyFinancialValueTable>[] {
  const row = (transactionTypeId: number, amountMinor: number, name: string | null = null) => ({
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

type HeaderRow = Insertable<PolicyHeaderTable>;
type DetailRow = Omit<Insertable<PolicyDetailTable>, 'policy_header_id'>;
type PolicyIds = { headerId: number; detailId: number };

/** Header then detail #1; undefined when the quote already has a policy (the header's quote id is unique). */
async function insertHeaderAndDetail(tx: Tx, header: HeaderRow, detail: DetailRow): Promise<PolicyIds | undefined> {
  const inserted = await tx.insertInto('policy_header').values(header).onConflict((oc) => oc.column('quote_id').doNothing()).returning('id').executeTakeFirst();
  if (!inserted) return undefined;
  const row = await tx
    .insertInto('policy_detail')
    .values(Object.assign({ policy_header_id: inserted.id }, detail))
    .returning('id')
    .executeTakeFirstOrThrow();
  return { headerId: inserted.id, detailId: row.id };
}

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
  } satisfies Insertable<PolicyHeaderTable>;
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
  } satisfies Omit<Insertable<PolicyDetailTable>, 'policy_header_id'>;
  const ids = dialectOf(tx) === 'postgres' ? await insertHeaderAndDetailInOne(tx, header, detail) : await insertHeaderAndDetail(tx, header, detail);
  if (!ids) return undefined;

  const people = [
    ...request.travellers.map((p, i) => personRow(p, 'traveller', i, ids)),
    ...request.dependents.map((p, i) => personRow(p, 'dependent', i, ids)),
  ];
  const options = request.options.map((option, i) => ({
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
  await tx.insertInto('policy_traveller').values(people).execute();
  if (options.length > 0) await tx.insertInto('policy_option').values(options).execute();
  await tx.insertInto('policy_financial_value').values(money).execute();
  return ids;
}
