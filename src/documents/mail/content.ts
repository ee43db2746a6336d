import type { MailLanguage } from './wording.js';

/** One line of the e-mail's summary: `Trip dates: 10 December 2026 to 23 December 2026 (Australia/Sydney time)`. */
export interface MailFact {
  readonly label: string;
  readonly value: string;
}

/**
 * A policy e-mail's words in reading order, already in its language; the text and the HTML part
 * are both rendered from it, so they cannot say different things. Partner and brand text is raw
 * here: each renderer escapes for its own format.
 */
export interface PolicyMailContent {
  readonly language: MailLanguage;
  readonly brandName: string;
  /** The subject, which is also the HTML part's heading. */
  readonly subject: string;
  readonly greeting: string;
  readonly lead: string;
  readonly facts: readonly MailFact[];
  /** Brand content EMAILDOC, only when what it says is attached is. */
  readonly brandText?: string;
  readonly link: { readonly intro: string; readonly text: string; readonly url: string };
  readonly attachedTitle: string;
  /** Each attached file: what it is and its file name, in the order attached. */
  readonly attached: readonly { readonly name: string; readonly filename: string }[];
  /** Brand content EMERGENCYPHONE under its heading. */
  readonly emergency?: { readonly title: string; readonly text: string };
  /** Brand content EFOOTER. */
  readonly footer?: string;
}
