import { TRANSACTION_TYPE, type DetailRecord } from './model.js';

/** The sum of a transaction's money rows of one type (TRANSACTION_TYPE), minor units. */
export function amountOfType(detail: DetailRecord, type: number): number {
  return detail.financials.filter((f) => f.transactionTypeId === type).reduce((sum, f) => sum + f.amountMinor, 0);
}

/**
 * What the transaction charged (negative: refunded), minor units: premium − discount + taxes +
 * donation + fees. The policy's summary, its documents and its e-mails all count it so.
 */
export function transactionMinor(detail: DetailRecord): number {
  return (
    amountOfType(detail, TRANSACTION_TYPE.Premium) -
    amountOfType(detail, TRANSACTION_TYPE.Discount) +
    amountOfType(detail, TRANSACTION_TYPE.Tax) +
    amountOfType(detail, TRANSACTION_TYPE.Donation) +
    amountOfType(detail, TRANSACTION_TYPE.Fee)
  );
}
