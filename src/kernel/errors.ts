/**
 * The domain's error hierarchy. Services throw these; `http/error-handler.ts` is the one place
 * that maps each kind to an HTTP status and to the contract's Notification shape.
 *
 * A concrete error names its stable machine `code` (what partners branch on) and a message a
 * person can read. `property` is the JSON path of the offending input, when there is one.
 */
export interface ErrorDetail {
  property?: string;
  value?: string;
  tokens?: Record<string, string>;
}

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  readonly property?: string;
  readonly value?: string;
  readonly tokens?: Record<string, string>;

  constructor(
    readonly code: string,
    message: string,
    detail: ErrorDetail = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.property = detail.property;
    this.value = detail.value;
    this.tokens = detail.tokens;
  }
}

/** Digit runs that could be a card number are masked before any value is echoed or logged. */
const CARD_LIKE = /\d(?:[ -]?\d){12,18}/g;
const MAX_ECHO = 120;

/**
 * An offending value as a problem report may echo it (an error's `value`, a validation
 * Notification's): scalars only, card-like digits masked, bounded length.
 */
export function echoValue(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  const text = String(value).replace(CARD_LIKE, '[REDACTED]');
  return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text;
}

/** How an error reads to a client; the HTTP mapping keys on this alone. */
export type ErrorKind =
  | 'invalid-input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'unprocessable'
  | 'rate-limited'
  | 'unavailable';

/** The request itself is malformed (wrong types, missing fields, unparsable body). */
export class InvalidInput extends DomainError {
  readonly kind = 'invalid-input';
}

/** The caller did not prove who it is; `challenge` becomes the `WWW-Authenticate` header. */
export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
  constructor(
    code: string,
    message: string,
    readonly challenge?: string,
    detail: ErrorDetail = {},
  ) {
    super(code, message, detail);
  }
}

/** The caller is known but may not do this (for example another brand's path). */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
}

/** The addressed thing does not exist, or does not exist for this caller. */
export class NotFound extends DomainError {
  readonly kind = 'not-found';
}

/** The request clashes with the current state (a purchased quote, a request still running). */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
  constructor(code: string, message: string, detail: ErrorDetail & { retryAfterSeconds?: number } = {}) {
    super(code, message, detail);
    this.retryAfterSeconds = detail.retryAfterSeconds;
  }
  readonly retryAfterSeconds?: number;
}

/** Well-formed, but not acceptable as it stands (for example an idempotency key reused). */
export class Unprocessable extends DomainError {
  readonly kind = 'unprocessable';
}

/**
 * The caller spent a request budget (http/limits/rate-limits.ts). `headers` name the budget and when it
 * refills (`Retry-After`, `RateLimit-Policy`, `RateLimit`).
 */
export class RateLimited extends DomainError {
  readonly kind = 'rate-limited';
  constructor(
    message: string,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    super('RATE_LIMITED', message);
  }
}

/** A budget as a 429 names it: `RateLimit-Policy: "<name>";q=<quota>;w=<windowSeconds>`. */
export interface SpentBudget {
  readonly name: string;
  readonly quota: number;
  readonly windowSeconds: number;
}

/**
 * The headers of a 429 for a spent budget: `Retry-After` and the IETF draft's (httpapi-ratelimit-headers)
 * `RateLimit-Policy` and `RateLimit`, the budget empty until its window ends in `resetSeconds`.
 */
export function spentBudgetHeaders(budget: SpentBudget, resetSeconds: number): Record<string, string> {
  return {
    'retry-after': String(resetSeconds),
    'ratelimit-policy': `"${budget.name}";q=${budget.quota};w=${budget.windowSeconds}`,
    ratelimit: `"${budget.name}";r=0;t=${resetSeconds}`,
  };
}

/** A dependency (database, payment gateway) cannot serve right now; `retryAfterSeconds` becomes `Retry-After`. */
export class Unavailable extends DomainError {
  readonly kind = 'unavailable';
  readonly retryAfterSeconds?: number;
  constructor(code: string, message: string, detail: ErrorDetail & { retryAfterSeconds?: number } = {}) {
    super(code, message, detail);
    this.retryAfterSeconds = detail.retryAfterSeconds;
  }
}

/** Brand codes of the contract are fixed; anything else on a path is an unknown brand. */
export class UnknownBrand extends NotFound {
  constructor(value: string) {
    super('UNKNOWN_BRAND', `Brand '${value}' does not exist.`, { property: 'brandCode', value });
  }
}

/** A JSON body naming `__proto__` or `constructor.prototype`: refused, it could reach an object's prototype. */
export class ForbiddenProperty extends InvalidInput {
  constructor() {
    super(
      'FORBIDDEN_PROPERTY',
      "The body holds a property named '__proto__' or 'constructor.prototype', which no request may contain.",
    );
  }
}

/** The process is closing; another process (or this service after its restart) answers the retry. */
export class ShuttingDown extends Unavailable {
  constructor() {
    super('SHUTTING_DOWN', 'The server is shutting down; send the request again on a new connection.');
  }
}
