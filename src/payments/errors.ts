import { NotFound } from '../kernel/errors.js';

/** No sandbox 3-D Secure challenge has this id. */
export class ChallengeNotFound extends NotFound {
  constructor(challengeId: string) {
    super('THREEDS_CHALLENGE_NOT_FOUND', 'No 3-D Secure challenge has this id.', {
      property: 'challengeId',
      value: challengeId,
    });
  }
}
