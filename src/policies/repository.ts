import { sql, type OnConflictBuilder, type SqlBool } from 'kysely';
import type { PlanStep } from '../db/commit-plan.js';
import type { Database } from '../db/database.js';
import type { PolicyIssueRequest } from './issue-request.js';
import type { NumberedIssue } from './model.js';
import type { CounterKey, NumberTemplate } from './policy-number.js';
import {
  childRows,
  headerAndDetailRows,
  MONEY_COLUMNS,
  OPTION_COLUMNS,
  TRAVELLER_COLUMNS,
  type DetailRow,
  type HeaderRow,
} from './policy-rows.js';

/**
 * Every write of the policy tables (reads: repository-read.ts): a purchased policy as steps of
 * the purchase's issuing commit plan (purchases/commits.ts, run by db/commit-plan.ts). The
 * number is taken from its counter in that commit, so numbers are gapless: a commit that does
 * not happen takes no number (SQLite rolls the counter back; PostgreSQL takes it only past the gate).
 */

export { findPolicy } from './repository-read.js';

/** The steps' names, for the steps after them that read the policy (its number: `header.policy_number`). */
export const POLICY_HEADER_STEP = 'header';

/**
 * Steps of the issuing plan, after the step `after`: the counter of `issue.counter` bumped (its
 * row lock held to the commit on PostgreSQL), the number rendered from the template in SQL (the
 * digits zero-padded, never cut), then header, detail #1, travellers, options and money. The
 * header is unique per quote: a quote that has its policy already ends the plan with `orElse`.
 */
export function numberedPolicySteps(
  after: string,
  request: PolicyIssueRequest,
  issue: NumberedIssue,
  orElse: string,
): PlanStep[] {
  const { header, detail } = headerAndDetailRows(request, {
    policyNumber: '',
    policyDetailNumber: '',
    policyDocumentAccessGuid: issue.policyDocumentAccessGuid,
    issuedAt: issue.issuedAt,
  });
  const { people, options, money } = childRows(request, { headerId: 0, detailId: 0 });
  const children = (name: string, table: keyof Database, rows: readonly object[], columns: readonly string[]) =>
    childrenStep(name, 'detail', table, rows, columns);
  const counter: PlanStep<CounterKey> = {
    name: 'counter',
    after,
    values: issue.counter,
    build: (_, { v, insert }) =>
      insert('policy_number_counter', { prefix: v.prefix, country: v.country, year: v.year, last_value: 1 })
        .onConflict(nextOnConflict)
        .returning('last_value'),
  };
  const numbered: PlanStep<Omit<HeaderRow, 'policy_number'> & NumberTemplate> = {
    name: POLICY_HEADER_STEP,
    after: 'counter',
    orElse,
    values: { ...withoutNumber(header), ...issue.number },
    build: (_, { v, ref, insert, zeroPadded }) => {
      const { before, width, after: rest, ...row } = v;
      const digits = zeroPadded(ref<number>('counter', 'last_value'), width);
      return insert('policy_header', { policy_number: sql`${before} || ${digits} || ${rest}`, ...row })
        .onConflict((oc: OnConflictBuilder<Database, 'policy_header'>) => oc.column('quote_id').doNothing())
        .returning(['id', 'policy_number']);
    },
  };
  const detailStep: PlanStep<Omit<DetailRow, 'policy_detail_number'> & { suffix: string }> = {
    name: 'detail',
    after: POLICY_HEADER_STEP,
    values: { ...withoutDetailNumber(detail), suffix: issue.detailSuffix },
    build: (_, { v, ref, insert }) => {
      const { suffix, ...row } = v;
      const number = ref<string>(POLICY_HEADER_STEP, 'policy_number');
      return insert('policy_detail', {
        policy_header_id: ref<number>(POLICY_HEADER_STEP, 'id'),
        policy_detail_number: sql`${number} || ${suffix}`,
        ...row,
      }).returning(['id', 'policy_header_id']);
    },
  };
  return [
    counter,
    numbered,
    detailStep,
    children('people', 'policy_traveller', people, TRAVELLER_COLUMNS),
    ...(options.length > 0 ? [children('options', 'policy_option', options, OPTION_COLUMNS)] : []),
    children('money', 'policy_financial_value', money, MONEY_COLUMNS),
  ];
}

/**
 * A step that writes a detail's child rows (travellers, options, money) under the header and
 * detail ids the step `detail` answered.
 */
export function childrenStep(
  name: string,
  detail: string,
  table: keyof Database,
  rows: readonly object[],
  columns: readonly string[],
): PlanStep<{ rows: readonly object[] }> {
  return {
    name,
    after: detail,
    values: { rows },
    build: (_, { v, ref, insertRows }) =>
      insertRows(table, v.rows, columns, {
        policy_header_id: ref<number>(detail, 'policy_header_id'),
        policy_detail_id: ref<number>(detail, 'id'),
      }),
  };
}

/** The first policy of a counter key inserts 1; every later one increments the row it conflicts with. */
const nextOnConflict = (oc: OnConflictBuilder<Database, 'policy_number_counter'>) =>
  oc
    .columns(['prefix', 'country', 'year'])
    .doUpdateSet({ last_value: sql<number>`${sql.ref('policy_number_counter.last_value')} + 1` });

function withoutNumber({ policy_number: _number, ...row }: HeaderRow): Omit<HeaderRow, 'policy_number'> {
  return row;
}

function withoutDetailNumber({
  policy_detail_number: _number,
  ...row
}: DetailRow): Omit<DetailRow, 'policy_detail_number'> {
  return row;
}

/**
 * A step that locks nothing new but requires the quote to have no policy yet (PostgreSQL's
 * issuing statement takes no number otherwise; SQLite's header insert refuses instead).
 */
export function noPolicyStep(
  name: string,
  after: string,
  quoteId: string,
  orElse: string,
): PlanStep<{ quoteId: string }> {
  return {
    name,
    after,
    orElse,
    locks: true,
    values: { quoteId },
    build: (qc, { v, gate }) =>
      qc
        .selectNoFrom(sql<number>`1`.as('open'))
        .where(gate)
        .where(sql<SqlBool>`not exists (select 1 from policy_header where quote_id = ${v.quoteId})`),
  };
}
