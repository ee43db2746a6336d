import type { Generated, Selectable } from 'kysely';

/** One operator action (operators/audit-repository.ts owns it; append-only by trigger). */
export interface OperatorActionTable {
  id: Generated<number>;
  operator_id: number;
  action: string;
  subject_type: string;
  subject_id: string;
  /** JSON text of the object's relevant fields before the action. */
  before_json: string | null;
  after_json: string | null;
  reason: string | null;
  at: string;
}
export type OperatorActionRow = Selectable<OperatorActionTable>;

/** One operator account (operators/repository.ts owns it). */
export interface OperatorTable {
  id: Generated<number>;
  /** As created (shown); `username_key` is its lower-cased form, unique. */
  username: string;
  username_key: string;
  display_name: string;
  role: string;
  /** argon2id (auth/passwords.ts). */
  password_hash: string;
  /** The TOTP secret (base32), sealed under KEY_ENCRYPTION_SECRET and bound to the row's id; null: none set up. */
  totp_secret_sealed: string | null;
  /** The newest TOTP time step accepted: a code of this step or an older one is a replay. */
  last_totp_step: number | null;
  /** Failed sign-ins since the last success or lock (taken before the password is checked). */
  failed_sign_ins: Generated<number>;
  locked_until: string | null;
  disabled_at: string | null;
  /** "Sign out everywhere": a session signed in before this instant is no longer valid. */
  sessions_valid_after: string | null;
  /** 1: a demo operator with a published password (staging only). */
  is_demo: Generated<number>;
  created_at: string;
}
export type OperatorRow = Selectable<OperatorTable>;

/** One console session (operators/session-repository.ts owns it). */
export interface OperatorSessionTable {
  /** SHA-256 (hex) of the session id: the table alone gives no live session. */
  sid_hash: string;
  /** The signed-in operator; null for an anonymous session (e.g. the sign-in form's CSRF secret). */
  operator_id: number | null;
  /** The session as JSON (its cookie settings, operator id, sign-in times, CSRF secret). */
  data: string;
  created_at: string;
  expires_at: string;
}

/** Failed sign-ins under a username no operator has (operators/unknown-sign-in-repository.ts owns it). */
export interface OperatorUnknownSignInTable {
  /** SHA-256 (hex) of the lower-cased username. */
  key_hash: string;
  failed_sign_ins: number;
  locked_until: string | null;
  updated_at: string;
}

declare module '../db/database.js' {
  interface Database {
    operator_action: OperatorActionTable;
    operator: OperatorTable;
    operator_session: OperatorSessionTable;
    operator_unknown_sign_in: OperatorUnknownSignInTable;
  }
}
