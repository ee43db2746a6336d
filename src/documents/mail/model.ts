/** An address with an optional display name; nodemailer encodes the name, so no header can be injected. */
export interface MailAddress {
  readonly name?: string;
  readonly address: string;
}

export interface MailAttachment {
  readonly filename: string;
  readonly contentType: 'application/pdf';
  readonly content: Uint8Array;
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
