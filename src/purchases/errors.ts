import { Conflict, Forbidden, InvalidInput, NotFound } from '../kernel/errors.js';

/** The purchase body names no stored quote (`quote.id`, an extension of QuoteMinimum). */
export class QuoteIdRequired extends InvalidInput {
  constructor() {
    super('FIELD_REQUIRED', 'quote.id is required: the id of the stored quote to buy.', { property: 'quote.id' });
  }
}

/** Another purchase of this quote is running (a double submit, or a 3-D Secure challenge waiting for its answer). */
export class PurchaseInProgress extends Conflict {
  constructor() {
    super(
      'PURCHASE_IN_PROGRESS',
      'A purchase of this quote is already in progress; wait for its answer (or complete its 3-D Secure challenge).',
      {
        property: 'quote.id',
        retryAfterSeconds: 1,
      },
    );
  }
}

/** Unknown quote id, or a quote of another partner or brand: the caller cannot tell which. */
export class PurchaseQuoteNotFound extends NotFound {
  constructor(id: string) {
    super('QUOTE_NOT_FOUND', 'No quote with this id exists for this brand and partner.', {
      property: 'quote.id',
      value: id,
    });
  }
}

/** `paymentMethod: ON_ACCOUNT` from a partner whose on-account purchases are not enabled (read per request). */
export class OnAccountNotEnabled extends Forbidden {
  constructor() {
    super(
      'ON_ACCOUNT_NOT_ENABLED',
      'This partner may not buy on account (isOnAccountPurchaseEnabled is false); pay by card or ask the insurer to enable it.',
      { property: 'paymentMethod', value: 'ON_ACCOUNT' },
    );
  }
}
