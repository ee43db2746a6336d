import { redactPath } from '../kernel/card-numbers/card-numbers.js';

/** The customer's document link carries a bearer secret in its path (documents/link-routes.ts). */
const DOCUMENT_LINK = '/documents/v1/';
const LINK_VALUE = /(\/documents\/v1\/)[^/?#]+/;

/**
 * A request path as logs may keep it: no query, card numbers redacted, and the document link's
 * secret value blanked (anyone reading the logs could otherwise open a traveller's documents).
 */
export function loggablePath(url: string): string {
  const path = redactPath(url);
  return path.includes(DOCUMENT_LINK) ? path.replace(LINK_VALUE, '$1[link]') : path;
}
