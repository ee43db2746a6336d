/** A phone number found in brand text, split so a page or an e-mail can make it a `tel:` link. */
export interface PhoneInText {
  readonly before: string;
  /** As written ("+61 2 8000 1000"). */
  readonly number: string;
  /** What a phone dials: digits and a leading `+` ("+61280001000"). */
  readonly dial: string;
  readonly after: string;
}

// Digits with spaces, dots or hyphens, an area code in brackets first ("(02) 8000 1000"); never a
// bracketed remark after the number ("+61 2 8000 1000 (24 hours)").
const PHONE = /\+?(?:\(\d+\)[ -]?)?\d[\d .-]{5,}\d/;

/** The first phone number in `text`, or undefined when it has none. */
export function phoneNumberIn(text: string): PhoneInText | undefined {
  const match = PHONE.exec(text);
  if (!match) return undefined;
  const number = match[0];
  return {
    before: text.slice(0, match.index),
    number,
    dial: number.replace(/[^\d+]/g, ''),
    after: text.slice(match.index + number.length),
  };
}
