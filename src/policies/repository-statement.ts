import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { jsonRows, jsonRowsOf } from './child-rows-json.js';
import { MONEY_COLUMNS } from './policy-rows.js';
import type { BrandCode } from '../kernel/brands.js';
import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import { TRANSACTION_TYPE } from './model.js';
import type { PolicyActionType } from './schemas-detail.js';

/**
 * The policy transactions of one partner under one brand committed in a time range, with their
 * money: what a partner's statement lists (statements/). Reads the policy tables, which this area
 * owns; the statement hands them on as its own lines. Committed time is `policy_detail.created_at`
 * (ISO 8601 UTC text, so ranges compare as text on both engines), found through
 * `policy_detail_created_idx`.
 */

/** The partner and brand whose transactions are read. */
export interface TransactionScope {
  readonly partnerId: number;
  readonly brandCode: BrandCode;
}

/** One money row of a transaction, minor units as stored (a refund's are negative). */
export interface TransactionMoney {
  /** TRANSACTION_TYPE (premium 1, discount 2, tax 3, donation 4, fee 5). */
  readonly transactionTypeId: number;
  /** The tax's or fee's name. */
  readonly name?: string;
  readonly amountMinor: number;
}

/** A policy transaction as a statement lists it. */
export interface CommittedTransaction {
  readonly detailId: number;
  readonly policyNumber: string;
  readonly policyDetailNumber: string;
  readonly actionType: PolicyActionType;
  /** When it committed (ISO 8601, UTC). */
  readonly committedAt: string;
  readonly paymentMethod: PaymentMethod;
  readonly money: readonly TransactionMoney[];
}

interface MoneyPart {
  readonly transaction_type_id: number;
  readonly name: string | null;
  readonly amount_minor: number;
}

/**
 * The transactions committed in [`from`, `to`), oldest first, each with its money rows (one row
 * per transaction, its money as a JSON array built by the engine: `jsonRows`). A policy issued
 * after the range has no transaction in it, which bounds the partner index's range too.
 */
export async function transactionsCommittedBetween(
  db: Executor,
  scope: TransactionScope,
  range: { readonly from: string; readonly to: string },
): Promise<CommittedTransaction[]> {
  const rows = await db
    .selectFrom('policy_detail as d')
    .innerJoin('policy_header as h', 'h.id', 'd.policy_header_id')
    .select([
      'd.id as detail_id',
      'h.policy_number',
      'd.policy_detail_number',
      'd.action_type',
      'd.created_at',
      'd.payment_method',
      jsonRows(dialectOf(db), 'policy_financial_value', MONEY_COLUMNS, {
        column: 'policy_detail_id',
        equals: 'd.id',
      }).as('money'),
    ])
    .where('d.created_at', '>=', range.from)
    .where('d.created_at', '<', range.to)
    .where('h.partner_id', '=', scope.partnerId)
    .where('h.brand_code', '=', scope.brandCode)
    .where('h.created_at', '<', range.to)
    .orderBy('d.created_at')
    .orderBy('d.id')
    .execute();
  return rows.map((row) => ({
    detailId: row.detail_id,
    policyNumber: row.policy_number,
    policyDetailNumber: row.policy_detail_number,
    actionType: row.action_type as PolicyActionType,
    committedAt: row.created_at,
    paymentMethod: row.payment_method as PaymentMethod,
    money: jsonRowsOf<MoneyPart>(row.money).map((m) => ({
      transactionTypeId: m.transaction_type_id,
      ...(m.name === null ? {} : { name: m.name }),
      amountMinor: m.amount_minor,
    })),
  }));
}

/** The sign each money row's type counts with in a transaction's total (transaction-amounts.ts). */
const signed = sql<number>`case when f.transaction_type_id = ${TRANSACTION_TYPE.Discount} then -f.amount_minor else f.amount_minor end`;

/**
 * The net of every transaction paid `method` committed before `before`: charges less refunds,
 * minor units (a statement's balance brought forward). Found from the partner's policies
 * (`policy_header_partner_idx`), their details and money by their indexes.
 */
export async function netCommittedBefore(
  db: Executor,
  scope: TransactionScope,
  method: PaymentMethod,
  before: string,
): Promise<number> {
  const row = await db
    .selectFrom('policy_header as h')
    .innerJoin('policy_detail as d', 'd.policy_header_id', 'h.id')
    .innerJoin('policy_financial_value as f', 'f.policy_detail_id', 'd.id')
    .select(sql<string | number | null>`sum(${signed})`.as('net'))
    .where('h.partner_id', '=', scope.partnerId)
    .where('h.brand_code', '=', scope.brandCode)
    .where('h.created_at', '<', before)
    .where('d.payment_method', '=', method)
    .where('d.created_at', '<', before)
    .executeTakeFirst();
  return Number(row?.net ?? 0);
}

/** When the partner's first policy under the brand was issued (its first transaction), if any. */
export async function firstTransactionAt(db: Executor, scope: TransactionScope): Promise<string | undefined> {
  const row = await db
    .selectFrom('policy_header')
    .select((eb) => eb.fn.min('created_at').as('first'))
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .executeTakeFirst();
  return row?.first ?? undefined;
}

/** Whether any transaction of the partner under the brand committed in [`from`, `to`). */
export async function hasTransactionsBetween(
  db: Executor,
  scope: TransactionScope,
  range: { readonly from: string; readonly to: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('policy_detail as d')
    .innerJoin('policy_header as h', 'h.id', 'd.policy_header_id')
    .select('d.id')
    .where('d.created_at', '>=', range.from)
    .where('d.created_at', '<', range.to)
    .where('h.partner_id', '=', scope.partnerId)
    .where('h.brand_code', '=', scope.brandCode)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
