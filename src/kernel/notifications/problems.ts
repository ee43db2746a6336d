import { echoValue } from '../errors.js';
import type { Notification } from './notification.js';

/**
 * Notifications the domain's rules answer (quote validation, purchase readiness). `title` marks
 * the severity: `error` makes the request invalid, `warning` (e.g. an unsafe destination) is
 * information and leaves `isValid` true.
 */
export const ERROR = 'error';
export const WARNING = 'warning';

/** What the severity means for the request, at this property (docs/api-contract.md "Notification.detail"). */
function detailOf(title: string, property: string): string {
  return title === ERROR
    ? `The request cannot proceed until ${property} is corrected.`
    : `Information only: the request proceeds with ${property} as sent.`;
}

function build(
  title: string,
  code: string,
  message: string,
  property: string,
  value?: unknown,
  tokens?: Record<string, string | number>,
): Notification {
  const notification: Notification = { code, message, property, title, detail: detailOf(title, property) };
  const echoed = echoValue(value);
  if (echoed !== undefined) notification.value = echoed;
  if (tokens) notification.tokens = Object.fromEntries(Object.entries(tokens).map(([k, v]) => [k, String(v)]));
  return notification;
}

export function problem(
  code: string,
  message: string,
  property: string,
  value?: unknown,
  tokens?: Record<string, string | number>,
): Notification {
  return build(ERROR, code, message, property, value, tokens);
}

export function warning(
  code: string,
  message: string,
  property: string,
  value?: unknown,
  tokens?: Record<string, string | number>,
): Notification {
  return build(WARNING, code, message, property, value, tokens);
}

export function isBlocking(notification: Notification): boolean {
  return notification.title !== WARNING;
}
