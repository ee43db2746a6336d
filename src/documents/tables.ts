import type { Generated, Selectable } from 'kysely';

/**
 * One rendered policy document, kept forever: the certificate (or cancellation notice) of one
 * transaction in one language. Fetching it again answers these bytes, never a re-render.
 */
export interface PolicyDocumentTable {
  id: Generated<number>;
  /** Random UUID: the `documentId` partners and customers see. */
  public_id: string;
  policy_header_id: number;
  /** The policy transaction (policy_detail.sequence_number) the document is for. */
  sequence_number: number;
  /** CERTIFICATE or CANCELLATION_NOTICE. */
  kind: string;
  /** en, es: one of the brand's languages. */
  language: string;
  file_name: string;
  /** The PDF (SQLite BLOB, PostgreSQL bytea; both drivers read it back as a Buffer). */
  content: Buffer;
  /** Hex SHA-256 of `content`. */
  sha256: string;
  created_at: string;
}

export type PolicyDocumentRow = Selectable<PolicyDocumentTable>;

/** A partner's request to send a policy's documents again: who asked, when, and whether to another address. */
export interface DocumentResendTable {
  id: Generated<number>;
  policy_number: string;
  partner_id: number;
  user_id: number;
  /** 1 when sent to an address the partner gave, 0 to the primary traveller's own. */
  to_other_address: number;
  /** The outbox message that sends it. */
  message_key: string;
  requested_at: string;
}

export interface DocumentsTables {
  policy_document: PolicyDocumentTable;
  document_resend: DocumentResendTable;
}

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends DocumentsTables {}
}
