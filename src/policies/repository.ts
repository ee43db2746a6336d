import { sql, type OnConflictBuilder, type QueryCreator } from 'kysely';
import type { Database, Tx } from '../db/database.js';
import { jsonRowColumns } from '../db/json-row.js';
import { reusableInsert, reusableQuery } from '../db/reusable-query.js';
import type { PolicyIssueRequest } from './issue-request.js';
import type { NumberedIssue } from './model.js';
import { numberFrom, type CounterKey } from './policy-number.js';
import {
  childRows,
  DETAIL_COLUMNS,
  HEADER_COLUMNS,
  headerAndDetailRows,
  MONEY_COLUMNS,
  OPTION_COLUMNS,
  TRAVELLER_COLUMNS,
  type DetailRow,
  type HeaderRow,
  type MoneyRow,
  type OptionRow,
  type PersonRow,
  type PolicyWriteValues,
} from './policy-rows.js';

/**
 * Every write of the policy tables (reads: repository-read.ts). A policy is written by the
 * purchase's issuing commit (purchases/commits.ts) in one of two ways, one per engine: SQLite
 * runs `writeNumberedPolicy` inside its transaction; PostgreSQL adds `withPolicyWrites`' CTEs to
 * its one issuing statement. Both number the policy from the counter in the same commit, so
 * numbers are gapless: a commit that does not happen takes no number.
 */

export { findPolicy } from './repository-read.js';
export { POLICY_WRITE_NAMES, policyWriteValues, type PolicyWriteValues } from './policy-rows.js';

/** The first policy of a counter key inserts 1; every later one increments the row it conflicts with. */
const nextOnConflict = (oc: OnConflictBuilder<Database, 'policy_number_counter'>) =>
  oc
    .columns(['prefix', 'country', 'year'])
    .doUpdateSet({ last_value: sql<number>`${sql.ref('policy_number_counter.last_value')} + 1` });

// The SQLite statements, each built and compiled once (db/reusable-query.ts); the child rows
// one multi-row insert per table, compiled once per row count.
const takeCounterValue = reusableQuery(['prefix', 'country', 'year'], (db, key: CounterKey) =>
  db
    .insertInto('policy_number_counter')
    .values({ prefix: key.prefix, country: key.country, year: key.year, last_value: 1 })
    .onConflict(nextOnConflict)
    .returning('last_value'),
);
const ID_COLUMNS = ['policy_header_id', 'policy_detail_id'] as const;
const insertHeader = reusableQuery(['policy_number', ...HEADER_COLUMNS], (db, header: HeaderRow) =>
  db
    .insertInto('policy_header')
    .values(header)
    .onConflict((oc) => oc.column('quote_id').doNothing())
    .returning('id'),
);
const insertDetail = reusableQuery(
  ['policy_header_id', 'policy_detail_number', ...DETAIL_COLUMNS],
  (db, detail: DetailRow & { policy_header_id: number }) =>
    db.insertInto('policy_detail').values(detail).returning('id'),
);
const insertPeople = reusableInsert([...ID_COLUMNS, ...TRAVELLER_COLUMNS], (db, rows: PersonRow[]) =>
  db.insertInto('policy_traveller').values(rows),
);
const insertOptions = reusableInsert([...ID_COLUMNS, ...OPTION_COLUMNS], (db, rows: OptionRow[]) =>
  db.insertInto('policy_option').values(rows),
);
const insertMoney = reusableInsert([...ID_COLUMNS, ...MONEY_COLUMNS], (db, rows: MoneyRow[]) =>
  db.insertInto('policy_financial_value').values(rows),
);

/**
 * SQLite: takes the next number of `issue.counter` and writes the policy under it (header,
 * detail #1 and everything the purchase bought). Undefined when the quote already has a policy
 * (the header is unique per quote); the caller must then roll its transaction back, which gives
 * the counter's value back.
 */
export async function writeNumberedPolicy(
  tx: Tx,
  request: PolicyIssueRequest,
  issue: NumberedIssue,
): Promise<string | undefined> {
  const [counter] = (await takeCounterValue(tx, issue.counter)).rows;
  if (!counter) throw new Error('policy number counter: no value returned');
  const policyNumber = numberFrom(issue.number, counter.last_value);
  const { policyDocumentAccessGuid, issuedAt } = issue;
  const { header, detail } = headerAndDetailRows(request, {
    policyNumber,
    policyDetailNumber: policyNumber + issue.detailSuffix,
    policyDocumentAccessGuid,
    issuedAt,
  });
  const [inserted] = (await insertHeader(tx, header)).rows;
  if (!inserted) return undefined;
  const [detailRow] = (await insertDetail(tx, Object.assign({ policy_header_id: inserted.id }, detail))).rows;
  if (!detailRow) throw new Error('policy detail: no id returned');
  const { people, options, money } = childRows(request, { headerId: inserted.id, detailId: detailRow.id });
  await insertPeople(tx, people);
  if (options.length > 0) await insertOptions(tx, options);
  await insertMoney(tx, money);
  return policyNumber;
}

/** PostgreSQL: the quote's existing policy, if any (the issuing statement's gate requires none). */
export function policyOfQuote(db: QueryCreator<Database>, quoteId: string) {
  return db.selectFrom('policy_header').select('policy_header.id').where('policy_header.quote_id', '=', quoteId);
}

const childrenFrom = (table: string, columns: readonly string[], rows: string) =>
  sql`select detail.policy_header_id, detail.id, ${jsonRowColumns(columns)} from detail, json_populate_recordset(null::${sql.table(table)}, ${rows}::json) as r`;

/** A statement whose `gate` CTE has one row when the policy may be written, none when it may not. */
export type GatedTables = Database & { gate: { open: number } };

/**
 * PostgreSQL: the CTEs that take the counter and write the whole policy (header, detail #1,
 * travellers, options, money), for each row of `gate` (one, or none: then nothing is written and
 * no number is taken). The number is rendered in SQL from the template (the digits zero-padded,
 * never cut). Rows travel as JSON read with the tables' own row types
 * (`json_populate_record[set]`), which keeps the SQL text the same for any number of travellers
 * and options: one prepared statement. The header CTE answers the policy number.
 */
export function withPolicyWrites(qc: QueryCreator<GatedTables>, v: PolicyWriteValues) {
  const digits = sql`cast(counter.last_value as text)`;
  return qc
    .with('counter', (q) =>
      q
        .insertInto('policy_number_counter')
        .columns(['prefix', 'country', 'year', 'last_value'])
        // A SELECT's parameters have no column to take their type from: cast each.
        .expression(
          sql`select cast(${v.prefix} as text), cast(${v.country} as text), cast(${v.year} as integer), 1 from gate`,
        )
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
      q
        .insertInto('policy_traveller')
        .columns(['policy_header_id', 'policy_detail_id', ...TRAVELLER_COLUMNS])
        .expression(childrenFrom('policy_traveller', TRAVELLER_COLUMNS, v.people)),
    )
    .with('options', (q) =>
      q
        .insertInto('policy_option')
        .columns(['policy_header_id', 'policy_detail_id', ...OPTION_COLUMNS])
        .expression(childrenFrom('policy_option', OPTION_COLUMNS, v.options)),
    )
    .with('money', (q) =>
      q
        .insertInto('policy_financial_value')
        .columns(['policy_header_id', 'policy_detail_id', ...MONEY_COLUMNS])
        .expression(childrenFrom('policy_financial_value', MONEY_COLUMNS, v.money)),
    );
}
