import type { Selectable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { BrandCode } from '../kernel/brands.js';
import type { PaymentReceived } from './model.js';
import type { AccountPaymentReceivedTable } from './tables.js';

/** Every query of `account_payment_received`; rows stay here. */

export interface AccountScope {
  readonly partnerId: number;
  readonly brandCode: BrandCode;
}

type PaymentRow = Pick<
  Selectable<AccountPaymentReceivedTable>,
  'reference' | 'amount_minor' | 'received_on' | 'recorded_at' | 'currency_code'
>;
const COLUMNS = ['reference', 'amount_minor', 'received_on', 'recorded_at', 'currency_code'] as const;

const toPayment = (row: PaymentRow): PaymentReceived => ({
  reference: row.reference,
  amountMinor: row.amount_minor,
  receivedOn: row.received_on,
  recordedAt: row.recorded_at,
});

/**
 * Records a payment unless its reference is recorded already (one statement: insert or nothing),
 * then answers the record that stands under the reference, with whether this call wrote it.
 */
export async function recordPaymentReceived(
  db: Executor,
  scope: AccountScope,
  payment: PaymentReceived & { readonly currencyCode: string },
): Promise<{ readonly payment: PaymentReceived & { readonly currencyCode: string }; readonly created: boolean }> {
  const inserted = await db
    .insertInto('account_payment_received')
    .values({
      partner_id: scope.partnerId,
      brand_code: scope.brandCode,
      reference: payment.reference,
      amount_minor: payment.amountMinor,
      currency_code: payment.currencyCode,
      received_on: payment.receivedOn,
      recorded_at: payment.recordedAt,
    })
    .onConflict((oc) => oc.columns(['partner_id', 'brand_code', 'reference']).doNothing())
    .returning('id')
    .executeTakeFirst();
  const row = await db
    .selectFrom('account_payment_received')
    .select(COLUMNS)
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .where('reference', '=', payment.reference)
    .executeTakeFirstOrThrow();
  return { payment: { ...toPayment(row), currencyCode: row.currency_code }, created: inserted !== undefined };
}

/** The payments received on the days [`fromDay`, `toDay`), oldest first. */
export async function paymentsReceivedBetween(
  db: Executor,
  scope: AccountScope,
  fromDay: string,
  toDay: string,
): Promise<PaymentReceived[]> {
  const rows = await db
    .selectFrom('account_payment_received')
    .select(COLUMNS)
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .where('received_on', '>=', fromDay)
    .where('received_on', '<', toDay)
    .orderBy('received_on')
    .orderBy('id')
    .execute();
  return rows.map(toPayment);
}

/** The sum of the payments received before `day`, minor units. */
export async function paymentsReceivedBefore(db: Executor, scope: AccountScope, day: string): Promise<number> {
  const row = await db
    .selectFrom('account_payment_received')
    .select((eb) => eb.fn.sum<string | number | null>('amount_minor').as('total'))
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .where('received_on', '<', day)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** The distinct months (`yyyy-mm`) in which payments were received. */
export async function monthsWithPayments(db: Executor, scope: AccountScope): Promise<string[]> {
  const rows = await db
    .selectFrom('account_payment_received')
    .select('received_on')
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .execute();
  return [...new Set(rows.map((r) => r.received_on.slice(0, 7)))];
}
