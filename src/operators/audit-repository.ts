import type { Executor } from '../db/database.js';
import type { OperatorActionRecord } from './model.js';
import type { OperatorActionRow } from './tables.js';

/** An audit entry as read back, with its id. */
export interface OperatorActionEntry extends OperatorActionRecord {
  readonly id: number;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/**
 * Appends one entry to the audit trail. Pass the transaction that makes the change itself, so the
 * change and its record commit together or not at all.
 */
export async function recordOperatorAction(db: Executor, record: OperatorActionRecord): Promise<void> {
  await db
    .insertInto('operator_action')
    .values({
      operator_id: record.operatorId,
      action: record.action,
      subject_type: record.subjectType,
      subject_id: record.subjectId,
      before_json: json(record.before),
      after_json: json(record.after),
      reason: record.reason ?? null,
      at: record.at,
    })
    .execute();
}

function entryOf(row: OperatorActionRow): OperatorActionEntry {
  return {
    id: row.id,
    operatorId: row.operator_id,
    action: row.action,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    ...(row.before_json === null ? {} : { before: JSON.parse(row.before_json) as unknown }),
    ...(row.after_json === null ? {} : { after: JSON.parse(row.after_json) as unknown }),
    ...(row.reason === null ? {} : { reason: row.reason }),
    at: row.at,
  };
}

/** The entries about one object, oldest first. */
export async function actionsOnSubject(
  db: Executor,
  subjectType: string,
  subjectId: string,
): Promise<OperatorActionEntry[]> {
  const rows = await db
    .selectFrom('operator_action')
    .selectAll()
    .where('subject_type', '=', subjectType)
    .where('subject_id', '=', subjectId)
    .orderBy('id')
    .execute();
  return rows.map(entryOf);
}

/** The newest entries, newest first, before an id (a page of the trail); optionally one operator's. */
export async function recentActions(
  db: Executor,
  page: { limit: number; beforeId?: number; operatorId?: number },
): Promise<OperatorActionEntry[]> {
  let query = db.selectFrom('operator_action').selectAll().orderBy('id', 'desc').limit(page.limit);
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId);
  if (page.operatorId !== undefined) query = query.where('operator_id', '=', page.operatorId);
  return (await query.execute()).map(entryOf);
}
