import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import { InvalidInput } from '../../kernel/errors.js';
import { containsCardNumber, findCardNumber } from '../../kernel/card-numbers/card-numbers.js';

const IN_BODY = 'Card numbers must never be sent to this API; send a card token at purchase instead.';

/** A card number in a request body, query or header. The value is never echoed, stored or logged. */
export class CardNumberRefused extends InvalidInput {
  constructor(property: string, message = IN_BODY) {
    super('CARD_NUMBER_REFUSED', message, { property });
  }
}

/** Headers the server stores (Idempotency-Key is kept for 24 h, in the clear). */
const STORED_HEADERS = ['idempotency-key'] as const;

function refusal(request: FastifyRequest): CardNumberRefused | undefined {
  const property = findCardNumber(request.body);
  if (property !== undefined) return new CardNumberRefused(property);
  for (const name of STORED_HEADERS) {
    const value = request.headers[name];
    const values = typeof value === 'string' ? [value] : (value ?? []);
    if (values.some(containsCardNumber)) {
      return new CardNumberRefused(
        'Idempotency-Key',
        'A card number is not an Idempotency-Key; use a random value such as a UUID.',
      );
    }
  }
  const query = findCardNumber(request.query);
  if (query !== undefined) {
    return new CardNumberRefused(
      query === 'body' ? 'query' : `query.${query}`,
      'Card numbers must never be sent in a URL.',
    );
  }
  return undefined;
}

/**
 * Refuses a request holding a card number in its body, its Idempotency-Key or its query (400
 * `CARD_NUMBER_REFUSED`, naming where). Registered app-wide as `preValidation`: before schema validation,
 * so a malformed body is refused too, and before an Idempotency-Key claim, so a card number is
 * never stored, not even as a key or a key's fingerprint.
 */
export const refuseCardNumbers: preValidationHookHandler = (request, _reply, done) => {
  done(refusal(request));
};
