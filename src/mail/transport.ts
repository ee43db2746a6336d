import nodemailer from 'nodemailer';
import type { AppContext, Clock } from '../context.js';
import type { Db } from '../db/database.js';
import type { MailMessage } from './model.js';
import { keepMail } from './repository.js';

/** Sends one e-mail; throws when it was not accepted (the outbox retries with the same Message-ID). */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

/** SMTP through nodemailer, to `smtp[s]://user:pass@host:port`; the Message-ID we give is kept. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transporter.sendMail({
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

/** The transport the configuration chose (src/mail/config.ts). */
export function mailTransportFor(context: AppContext): MailTransport {
  const mail = context.config.mail;
  return mail.transport === 'smtp' ? smtpTransport(mail.smtpUrl) : sandboxMailbox(context.db, context.clock);
}
