import type { Generated, Insertable, Selectable } from 'kysely';

/** An e-mail kept by the staging sandbox mailbox instead of being sent (one row per Message-ID). */
export interface SandboxMailTable {
  id: Generated<number>;
  message_id: string;
  from_address: string;
  reply_to: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: string;
}

/** An attachment of a kept e-mail, its bytes as sent (BLOB in SQLite, bytea in PostgreSQL). */
export interface SandboxMailAttachmentTable {
  id: Generated<number>;
  sandbox_mail_id: number;
  /** 1-based order among the e-mail's attachments. */
  position: number;
  filename: string;
  content_type: string;
  content: Buffer;
}

export interface MailTables {
  sandbox_mail: SandboxMailTable;
  sandbox_mail_attachment: SandboxMailAttachmentTable;
}

export type SandboxMailRow = Selectable<SandboxMailTable>;
export type NewSandboxMailRow = Insertable<SandboxMailTable>;

declare module '../../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends MailTables {}
}
