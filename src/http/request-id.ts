import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { containsCardNumber } from '../kernel/card-numbers/card-numbers.js';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Keeps a caller's request id when it is a sane token (so traces join up), else makes one. An id
 * holding a card number is replaced, never echoed: it goes into every log line and the answer.
 */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_ID.test(given) && !containsCardNumber(given) ? given : randomUUID();
}
