import type { preValidationHookHandler } from 'fastify';
import { InvalidInput } from '../errors.js';
import { findCardNumber } from '../payments/card-numbers.js';

/** A card number in a request body. The value is never echoed, stored or logged. */
export class CardNumberRefused extends InvalidInput {
  constructor(property: string) {
    super(
      'CARD_NUMBER_REFUSED',
      'Card numbers must never be sent to the quote endpoints; send a card token at purchase instead.',
      { property },
    );
  }
}

/**
 * Refuses a body holding a card number (400 `CARD_NUMBER_REFUSED`, naming where). Registered as
 * `preValidation`: before schema validation, so a malformed body is refused too, and before an
 * Idempotency-Key claim, so a card number is never stored, not even as a key's fingerprint.
 */
export const refuseCardNumbers: preValidationHookHandler = (request, _reply, done) => {
  const property = findCardNumber(request.body);
  done(property === undefined ? undefined : new CardNumberRefused(property));
};
