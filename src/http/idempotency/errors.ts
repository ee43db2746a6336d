import { Conflict, InvalidInput, Unprocessable } from '../../kernel/errors.js';

/** The Idempotency-Key header is not 1–255 printable ASCII characters, or comes more than once. */
export class IdempotencyKeyMalformed extends InvalidInput {
  constructor(message = 'Idempotency-Key must be 1–255 printable ASCII characters.') {
    super('IDEMPOTENCY_KEY_INVALID', message, {
      property: 'Idempotency-Key',
      tokens: { minLength: '1', maxLength: '255' },
    });
  }
}

/** The route requires a key (it moves money: a retry must never move it twice) and none came. */
export class IdempotencyKeyRequired extends InvalidInput {
  constructor(message = 'Idempotency-Key header is required (a retry with the same key replays the answer).') {
    super('IDEMPOTENCY_KEY_REQUIRED', message, { property: 'Idempotency-Key' });
  }
}

/** The key was already used for a request with another method, path or body. */
export class IdempotencyKeyReused extends Unprocessable {
  constructor() {
    super(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used with a different request; use a new key for a new request.',
      {
        property: 'Idempotency-Key',
      },
    );
  }
}

/** The first request with this key is still running; retry after it finishes. */
export class IdempotencyRequestInFlight extends Conflict {
  constructor(retryAfterSeconds: number) {
    super(
      'IDEMPOTENCY_REQUEST_IN_PROGRESS',
      'A request with this Idempotency-Key is still in progress; retry shortly.',
      {
        property: 'Idempotency-Key',
        retryAfterSeconds,
      },
    );
  }
}
