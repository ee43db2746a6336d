import { containsCardNumber } from '../kernel/card-numbers/card-numbers.js';
import { ReasonRefused } from './errors.js';

/** The longest reason an operator may type. */
export const MAX_REASON_LENGTH = 500;

/**
 * An operator's reason as the audit trail (and a policy note) keeps it: trimmed, 1–500 characters,
 * no control characters but line breaks, never a card number.
 */
export function checkedReason(text: string | undefined, required: boolean): string | undefined {
  const reason = (text ?? '').trim();
  if (reason === '') {
    if (required) throw new ReasonRefused('Say why: the reason is required.');
    return undefined;
  }
  if (reason.length > MAX_REASON_LENGTH)
    throw new ReasonRefused(`A reason has at most ${MAX_REASON_LENGTH} characters.`);
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(reason))
    throw new ReasonRefused('A reason is plain text.');
  if (containsCardNumber(reason)) throw new ReasonRefused('A reason never holds a card number.');
  return reason;
}
