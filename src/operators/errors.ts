import { Conflict, InvalidInput, NotFound, Unprocessable } from '../kernel/errors.js';
import { OPERATOR_ROLES } from './model.js';

export class OperatorNotFound extends NotFound {
  constructor() {
    super('OPERATOR_NOT_FOUND', 'No operator has this username.', { property: 'username' });
  }
}

export class UsernameTaken extends Conflict {
  constructor() {
    super('USERNAME_TAKEN', 'An operator with this username (in any letter case) exists.', { property: 'username' });
  }
}

export class InvalidUsername extends InvalidInput {
  constructor() {
    super('INVALID_USERNAME', 'A username is 3–64 of the letters a-z, digits and . _ @ -.', { property: 'username' });
  }
}

export class InvalidDisplayName extends InvalidInput {
  constructor() {
    super('INVALID_DISPLAY_NAME', 'A display name is 1–100 characters.', { property: 'name' });
  }
}

export class UnknownRole extends InvalidInput {
  constructor() {
    super('UNKNOWN_ROLE', `A role is one of ${OPERATOR_ROLES.join(', ')}.`, { property: 'role' });
  }
}

export class WeakPassword extends InvalidInput {
  constructor(minLength: number) {
    super('WEAK_PASSWORD', `An operator's password has at least ${minLength} characters.`, { property: 'password' });
  }
}

/** APP_ENV=production: every operator signs in with a second factor. */
export class SecondFactorRequired extends Unprocessable {
  constructor() {
    super('SECOND_FACTOR_REQUIRED', 'In production every operator has a second factor (TOTP).', {
      property: 'secondFactor',
    });
  }
}
