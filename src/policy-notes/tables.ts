import type { Generated, Selectable } from 'kysely';

/** Policy notes (issue 31): repository.ts owns both tables. Timestamps are ISO 8601 UTC text. */
export interface PolicyNotesTables {
  policy_note_reason: PolicyNoteReasonTable;
  policy_note: PolicyNoteTable;
}

/** Why a note is written; operators manage the list with `notes reasons …` (cli.ts). */
export interface PolicyNoteReasonTable {
  id: Generated<number>;
  reason_text: string;
  /** 1 while operators may choose it; a deactivated reason stays on the notes that used it. */
  is_active: number;
  display_order: number;
  /** 1 for the reason the form preselects (at most one, by a partial unique index). */
  is_default: number;
  /** When the reason was loaded (the contract's `etlAt`). */
  etl_at: string;
}

/** A note on one policy transaction; append-only (triggers refuse UPDATE and DELETE). */
export interface PolicyNoteTable {
  id: Generated<number>;
  policy_header_id: number;
  policy_detail_id: number;
  note_text: string;
  /** The operator who wrote it (operator id). */
  user_id: number;
  policy_note_reason_id: number;
  created_at: string;
}

export type PolicyNoteReasonRow = Selectable<PolicyNoteReasonTable>;
export type PolicyNoteRow = Selectable<PolicyNoteTable>;

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends PolicyNotesTables {}
}
