/**
 * Finds unredacted card numbers (PANs) anywhere in a parsed JSON value, so a request carrying
 * one can be refused before anything stores or logs it (PCI DSS 3.3–3.5; checklist F).
 *
 * A PAN is recognised as payment schemes recognise one: 13–19 digits that fall in a scheme's
 * issuer range with one of that scheme's lengths (credit-card-type's table: Visa, Mastercard,
 * Amex, Discover, JCB, UnionPay, Maestro, Mir, …) and pass the Luhn check, written plainly or in
 * groups separated by single spaces or dashes ("4111 1111 1111 1111", "3782-822463-10005").
 * Test PANs count. Digits glued to more digits (a 25-digit reference) are not split: a PAN has
 * digit-free edges. Ordinary identifiers pass: a millisecond timestamp (`order-1795768000006`)
 * is in no issuer range, and a UUID, with or without its dashes, is an identifier as a whole.
 */
import creditCardType from 'credit-card-type';
import type { CreditCardType } from 'credit-card-type/dist/types.js';
import { propertyPathsHolding } from '../notifications/property-path.js';

/**
 * Captured first: a UUID as written, or as 32 hex digits without its dashes (ids, and keys such
 * as `order-<uuid>`), with no hex digit on either side. Else a digit run: digit groups joined by
 * one space or dash, with no digit on either side. One pass, so a UUID is skipped as a whole.
 */
const UUID_OR_DIGIT_RUN =
  /(?<![0-9a-f])((?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}))(?![0-9a-f])|(?<!\d)\d+(?:[ -]\d+)*(?!\d)/gi;
const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

// The table's Visa omits 13 digits (older cards, and a common test PAN); its JCB omits the 15-digit
// cards of JCB's older ranges 1800 and 2131; UATP (airline cards, 1 and 15 digits) is missing. All
// are card numbers here.
creditCardType.updateCard('visa', { lengths: [13, 16, 18, 19] });
creditCardType.updateCard('jcb', { lengths: [15, 16, 17, 18, 19] });
const UATP: CreditCardType = {
  niceType: 'UATP',
  type: 'uatp',
  patterns: [1],
  gaps: [4, 9],
  lengths: [15],
  code: { name: 'CVV', size: 0 },
};

/**
 * Every scheme of the table, read once. The library's own lookup answers only the most specific
 * prefix (a 19-digit Visa 457631… is Elo's, whose cards have 16 digits), so a detector asks every
 * scheme whose prefix matches, whatever the others say.
 */
const SCHEMES: readonly CreditCardType[] = [
  ...Object.values(creditCardType.types).map((type) => creditCardType.getTypeInfo(type)),
  UATP,
];

const prefixMatches = (digits: string, pattern: number | number[]): boolean => {
  if (typeof pattern === 'number') return digits.startsWith(String(pattern));
  const [low = 0, high = low] = pattern;
  const width = String(low).length;
  const head = Number(digits.slice(0, width));
  return digits.length >= width && head >= low && head <= high;
};

/** Whether the digits are a card number: a scheme's issuer range and length, and the Luhn check. */
export function isCardNumber(digits: string): boolean {
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS || !luhnValid(digits)) return false;
  return SCHEMES.some(
    (scheme) =>
      scheme.lengths.includes(digits.length) && scheme.patterns.some((pattern) => prefixMatches(digits, pattern)),
  );
}

/** The Luhn (mod 10) check over a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Whether a text holds a PAN. Within a run of separated groups ("call 0412 345 678 or pay
 * 4111 1111 1111 1111") every contiguous span of whole groups is tried, so neighbouring numbers
 * neither hide a PAN nor make one.
 */
export function containsCardNumber(text: string): boolean {
  // Most strings of a body (codes, dates, names) are too short to hold 13 digits: no regex then.
  if (text.length < MIN_DIGITS || !holdsDigits(text, MIN_DIGITS)) return false;
  // A UUID (change ids are UUIDs, keys often hold one) is an identifier, not a card: about 1 in
  // 500 random UUIDs has digit groups that pass the Luhn check, dashes or not.
  for (const [run, uuid] of text.matchAll(UUID_OR_DIGIT_RUN)) if (!uuid && runHoldsCardNumber(run)) return true;
  // A URL in a field may carry one percent-encoded (`4111%201111%20…`).
  const decoded = text.includes('%') ? percentDecoded(text) : text;
  return decoded !== text && containsCardNumber(decoded);
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** At least `count` digits anywhere in `text` (log lines and user agents rarely have 13: no regex then). */
function holdsDigits(text: string, count: number): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57 && ++digits >= count) return true;
  }
  return false;
}

/** Whether some contiguous span of whole groups of one digit run is a PAN. */
function runHoldsCardNumber(run: string): boolean {
  if (run.length < MIN_DIGITS) return false;
  const groups = run.split(/[ -]/);
  for (let start = 0; start < groups.length; start += 1) {
    let digits = '';
    for (let end = start; end < groups.length; end += 1) {
      digits += groups[end] ?? '';
      if (digits.length > MAX_DIGITS) break;
      if (isCardNumber(digits)) return true;
    }
  }
  return false;
}

/** What stands where a card number was in a log line, a stored header or an error message. */
export const CARD_NUMBER_REDACTED = '[CARD NUMBER REDACTED]';

/**
 * The text with every digit run that holds a PAN replaced (the whole run, separators included);
 * the very string when it holds none. For values that arrive outside a JSON body (headers, paths,
 * messages built from them), which no refusal can stop from reaching a log line or a table.
 */
export function redactCardNumbers(text: string): string {
  if (!containsCardNumber(text)) return text;
  const redacted = text.replace(UUID_OR_DIGIT_RUN, (run, uuid?: string) =>
    !uuid && runHoldsCardNumber(run) ? CARD_NUMBER_REDACTED : run,
  );
  // Only percent-encoded there: nothing of the text can be kept.
  return containsCardNumber(redacted) ? CARD_NUMBER_REDACTED : redacted;
}

/**
 * The path of a request target (its query left out: query strings may carry anything), with each
 * segment that holds a PAN, as sent or percent-decoded (`4111%201111%20…`), replaced.
 */
export function redactPath(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path.length < MIN_DIGITS) return path;
  let redacted: string[] | undefined;
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i] ?? '';
    if (segment.length < MIN_DIGITS) continue;
    if (containsCardNumber(segment)) {
      redacted ??= [...segments];
      redacted[i] = CARD_NUMBER_REDACTED;
    }
  }
  return redacted ? redacted.join('/') : path;
}

/**
 * JSON paths (`quote.input.policyHolders[0].firstName`, `` for the root) of every string, whole
 * number or property name holding a PAN. Iterative, so a deeply nested body cannot overflow the
 * stack; shared or cyclic references are visited once.
 */
export function findCardNumbers(value: unknown): string[] {
  return propertyPathsHolding(value, containsCardNumber, { wholeNumbers: true });
}

/**
 * The first path holding a PAN, for refusing a request with one Notification (`body` when the
 * whole body is the number). Used by every area that takes JSON from partners.
 */
export function findCardNumber(value: unknown): string | undefined {
  const [first] = propertyPathsHolding(value, containsCardNumber, { wholeNumbers: true, firstOnly: true });
  return first === '' ? 'body' : first;
}
