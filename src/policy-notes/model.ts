/** Policy notes as services and the policy presentation see them (never rows). */

export interface NoteReason {
  readonly id: number;
  readonly text: string;
  readonly isActive: boolean;
  readonly displayOrder: number;
  readonly isDefault: boolean;
  /** When the reason was loaded, UTC ISO 8601. */
  readonly etlAt: string;
}

export interface PolicyNoteRecord {
  readonly id: number;
  readonly policyHeaderId: number;
  readonly policyDetailId: number;
  readonly text: string;
  /** The operator who wrote it. */
  readonly userId: number;
  readonly createdAt: string;
  readonly reason: NoteReason;
}

/** Bounds of a note's text (characters). */
export const NOTE_TEXT_MAX = 2000;
/** Bounds of a reason's text (characters). */
export const REASON_TEXT_MAX = 100;
