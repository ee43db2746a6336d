import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database.js';
import type { MailAddress, MailMessage } from './model.js';

/** An attachment of a kept e-mail, without its bytes. */
export interface KeptAttachmentInfo {
  readonly position: number;
  readonly filename: string;
  readonly contentType: string;
  readonly sizeBytes: number;
}

export interface KeptMailSummary {
  readonly id: number;
  readonly messageId: string;
  readonly to: string;
  readonly subject: string;
  readonly createdAt: string;
}

export interface KeptMail extends KeptMailSummary {
  readonly from: string;
  readonly replyTo: string;
  readonly text: string;
  readonly html: string;
  readonly attachments: readonly KeptAttachmentInfo[];
}

/** `Name <address>` for display (the sandbox pages); the transport never parses it back. */
export function formatAddress(address: MailAddress): string {
  return address.name ? `${address.name} <${address.address}>` : address.address;
}

/**
 * Keeps an e-mail in the sandbox mailbox with its attachments, once per Message-ID: a resend of
 * the same e-mail (at-least-once delivery) changes nothing. True when it was new.
 */
export async function keepMail(db: Db, message: MailMessage, at: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('sandbox_mail')
      .values({
        message_id: message.messageId,
        from_address: formatAddress(message.from),
        reply_to: formatAddress(message.replyTo),
        to_address: formatAddress(message.to),
        subject: message.subject,
        text_body: message.text,
        html_body: message.html,
        created_at: at,
      })
      .onConflict((oc) => oc.column('message_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    if (message.attachments.length > 0) {
      await tx
        .insertInto('sandbox_mail_attachment')
        .values(
          message.attachments.map((a, index) => ({
            sandbox_mail_id: row.id,
            position: index + 1,
            filename: a.filename,
            content_type: a.contentType,
            content: Buffer.from(a.content),
          })),
        )
        .execute();
    }
    return true;
  });
}

/** The newest kept e-mails first. */
export async function listKeptMail(db: Executor, limit: number): Promise<KeptMailSummary[]> {
  const rows = await db
    .selectFrom('sandbox_mail')
    .select(['id', 'message_id', 'to_address', 'subject', 'created_at'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    messageId: r.message_id,
    to: r.to_address,
    subject: r.subject,
    createdAt: r.created_at,
  }));
}

export async function findKeptMail(db: Executor, id: number): Promise<KeptMail | undefined> {
  const row = await db.selectFrom('sandbox_mail').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const attachments = await db
    .selectFrom('sandbox_mail_attachment')
    .select(['position', 'filename', 'content_type', sql<number>`length(content)`.as('size_bytes')])
    .where('sandbox_mail_id', '=', id)
    .orderBy('position')
    .execute();
  return {
    id: row.id,
    messageId: row.message_id,
    from: row.from_address,
    replyTo: row.reply_to,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    createdAt: row.created_at,
    attachments: attachments.map((a) => ({
      position: a.position,
      filename: a.filename,
      contentType: a.content_type,
      sizeBytes: a.size_bytes,
    })),
  };
}

export async function findKeptAttachment(
  db: Executor,
  mailId: number,
  position: number,
): Promise<{ filename: string; contentType: string; content: Uint8Array } | undefined> {
  const row = await db
    .selectFrom('sandbox_mail_attachment')
    .select(['filename', 'content_type', 'content'])
    .where('sandbox_mail_id', '=', mailId)
    .where('position', '=', position)
    .executeTakeFirst();
  return row ? { filename: row.filename, contentType: row.content_type, content: Buffer.from(row.content) } : undefined;
}
