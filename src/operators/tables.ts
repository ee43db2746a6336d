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

declare module '../db/database.js' {
  interface Database {
    operator_action: OperatorActionTable;
  }
}
