import nodemailer from 'nodemailer';
import type { AppContext, Clock } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { MailMessage } from './model.js';
import { keepMail } from './repository.js';

/** Sends one e-mail; throws when it was not accepted (the outbox retries with the same Message-ID). */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

/**
 * A refused or failed send, told by nodemailer's code and the server's reply code only: its message
 * holds no address or server text, so the outbox may record it as `last_error`.
 */
export class MailSendFailed extends Error {
  /** The server answered 5xx: sending the same e-mail again will fail the same way. */
  readonly permanent: boolean;
  constructor(
    readonly code: string,
    readonly responseCode: number | undefined,
    options?: ErrorOptions,
  ) {
    super(`SMTP send failed: ${code}${responseCode ? ` ${String(responseCode)}` : ''}`, options);
    this.name = 'MailSendFailed';
    this.permanent = responseCode !== undefined && responseCode >= 500 && responseCode < 600;
  }
}

// Bounded waits, well inside the outbox lease (60 s by default), so a hung server fails the attempt
// instead of outliving it; a query parameter of SMTP_URL (e.g. `?socketTimeout=60000`) overrides them.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

function failure(error: unknown): MailSendFailed {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return new MailSendFailed(
    typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code : 'EUNKNOWN',
    typeof responseCode === 'number' ? responseCode : undefined,
    { cause: error },
  );
}

/** SMTP through nodemailer, to `smtp[s]://user:pass@host:port`; the Message-ID we give is kept. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({ ...SMTP_TIMEOUTS, url });
  return {
    async send(message) {
      await transporter
        .sendMail({
          messageId: message.messageId,
          from: { name: message.from.name ?? '', address: message.from.address },
          replyTo: { name: message.replyTo.name ?? '', address: message.replyTo.address },
          to: { name: message.to.name ?? '', address: message.to.address },
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: message.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: Buffer.from(a.content),
          })),
        })
        .catch((error: unknown) => {
          throw failure(error);
        });
    },
  };
}

/** Staging without SMTP_URL: e-mails are kept in the database (once per Message-ID) and shown on /sandbox/mail. */
export function sandboxMailbox(db: Db, clock: Clock = () => new Date()): MailTransport {
  return {
    async send(message) {
      await keepMail(db, message, clock().toISOString());
    },
  };
}

/** The transport the configuration chose (src/config/mail.ts). */
export function mailTransportFor(context: AppContext): MailTransport {
  const mail = context.config.mail;
  return mail.transport === 'smtp' ? smtpTransport(mail.smtpUrl) : sandboxMailbox(context.db, context.clock);
}
