/**
 * Finds unredacted card numbers (PANs) in a request body: 13–19 digits, optionally grouped by
 * single spaces or dashes, passing the Luhn check. Only whole digit runs count, so a longer
 * number (an account or booking reference) is not cut into a card number by accident.
 */
const DIGIT_RUN = /\d(?:[ -]?\d)*/g;
const MAX_DEPTH = 32;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function containsCardNumber(text: string): boolean {
  for (const match of text.matchAll(DIGIT_RUN)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return true;
  }
  return false;
}

/** The JSON path of the first string (value or key) holding a card number, if any. */
export function findCardNumber(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return containsCardNumber(value) ? path || 'body' : undefined;
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findCardNumber(value[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (containsCardNumber(key)) return childPath;
    const found = findCardNumber(child, childPath, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
