import type { DocumentKind } from '../certificate.js';

/** An address with an optional display name; nodemailer encodes the name, so no header can be injected. */
export interface MailAddress {
  readonly name?: string;
  readonly address: string;
}

/**
 * What an attached file is, so the e-mail can name it: the transaction's own document, or the
 * plan's PDS under the name the catalogue gives it in the e-mail's language.
 */
export type AttachedDocument = { readonly kind: DocumentKind } | { readonly kind: 'PDS'; readonly name: string };

export interface MailAttachment {
  readonly filename: string;
  readonly contentType: 'application/pdf';
  readonly content: Uint8Array;
  readonly document: AttachedDocument;
}

/** One e-mail, ready for any transport. `messageId` is stable: a resend carries the same one. */
export interface MailMessage {
  /** RFC 5322 Message-ID with its angle brackets, e.g. `<policy-documents=3A12=3A1@nomad.example>`. */
  readonly messageId: string;
  readonly from: MailAddress;
  readonly replyTo: MailAddress;
  readonly to: MailAddress;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly attachments: readonly MailAttachment[];
}
