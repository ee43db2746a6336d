import { Conflict, InvalidInput, NotFound } from '../kernel/errors.js';

/** A statement month that is not `yyyy-mm`. */
export class InvalidStatementMonth extends InvalidInput {
  constructor(month: string) {
    super('INVALID_STATEMENT_MONTH', `'${month}' is not a month: write it as yyyy-mm (e.g. 2026-11).`, {
      property: 'month',
      value: month,
    });
  }
}

/** A month that has not begun in the brand's time zone. */
export class StatementMonthInFuture extends InvalidInput {
  constructor(month: string) {
    super('STATEMENT_MONTH_IN_FUTURE', `The month ${month} has not begun in the brand's time zone.`, {
      property: 'month',
      value: month,
    });
  }
}

/** A past month in which the partner had no transaction and made no payment under the brand. */
export class StatementNotFound extends NotFound {
  constructor(month: string) {
    super('STATEMENT_NOT_FOUND', `There is no statement for ${month}: nothing happened on your account that month.`, {
      property: 'month',
      value: month,
    });
  }
}

/** A payment's input an operator must correct (amount, day, reference, partner). */
export class InvalidPaymentReceived extends InvalidInput {
  constructor(property: string, message: string) {
    super('INVALID_PAYMENT_RECEIVED', message, { property });
  }
}

/** A reference recorded before with another amount or day: the first record stands. */
export class PaymentReferenceConflict extends Conflict {
  constructor(reference: string) {
    super(
      'PAYMENT_REFERENCE_CONFLICT',
      `The payment '${reference}' was recorded before with another amount or day; the first record stands.`,
      { property: 'reference', value: reference },
    );
  }
}
