import { InvalidInput, NotFound } from '../kernel/errors.js';

/** No sandbox 3-D Secure challenge has this id. */
export class ChallengeNotFound extends NotFound {
  constructor(challengeId: string) {
    super('THREEDS_CHALLENGE_NOT_FOUND', 'No 3-D Secure challenge has this id.', {
      property: 'challengeId',
      value: challengeId,
    });
  }
}

/**
 * A card token sent for money that moves on the partner's account (an on-account purchase, or a
 * change of an on-account policy): refused rather than ignored, so no one believes the card paid.
 */
export class CardTokenNotAccepted extends InvalidInput {
  constructor() {
    super(
      'CARD_TOKEN_NOT_ACCEPTED',
      "This payment is on the partner's account and takes no card: leave cardToken out.",
      { property: 'cardToken.token' },
    );
  }
}
