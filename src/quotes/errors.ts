import { Conflict, NotFound } from '../kernel/errors.js';

/** Unknown id, or a quote of another brand or partner: the caller cannot tell which. */
export class QuoteNotFound extends NotFound {
  constructor(id: string) {
    super('QUOTE_NOT_FOUND', 'No quote with this id exists for this brand and partner.', {
      property: 'quoteId',
      value: id,
    });
  }
}

export class QuotePurchased extends Conflict {
  constructor() {
    super('QUOTE_PURCHASED', 'The quote has been purchased and can no longer change.', { property: 'quoteId' });
  }
}

export class QuotePurchaseInitiated extends Conflict {
  constructor() {
    super(
      'QUOTE_PURCHASE_INITIATED',
      'A purchase of this quote is in progress; it cannot change until the purchase ends.',
      { property: 'quoteId' },
    );
  }
}

/** Two updates raced; the later one must re-read the quote and try again. */
export class QuoteChangedConcurrently extends Conflict {
  constructor() {
    super('QUOTE_CHANGED', 'The quote was changed by another request; read it again and retry.', {
      property: 'quoteId',
    });
  }
}
