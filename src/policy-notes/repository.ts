import type { Executor } from '../db/database.js';
import type { NoteReason, PolicyNoteRecord } from './model.js';
import type { PolicyNoteReasonRow } from './tables.js';

/** Every query of policy notes and their reasons (tables.ts). */

const REASON_COLUMNS = ['id', 'reason_text', 'is_active', 'display_order', 'is_default', 'etl_at'] as const;
type ReasonPart = Pick<PolicyNoteReasonRow, (typeof REASON_COLUMNS)[number]>;

function reasonOf(row: ReasonPart): NoteReason {
  return {
    id: row.id,
    text: row.reason_text,
    isActive: row.is_active === 1,
    displayOrder: row.display_order,
    isDefault: row.is_default === 1,
    etlAt: row.etl_at,
  };
}

/** The reasons in the order forms list them; only the active ones unless `all`. */
export async function listReasons(db: Executor, options: { all?: boolean } = {}): Promise<NoteReason[]> {
  let query = db.selectFrom('policy_note_reason').select(REASON_COLUMNS).orderBy('display_order').orderBy('id');
  if (!options.all) query = query.where('is_active', '=', 1);
  return (await query.execute()).map(reasonOf);
}

export async function findReason(db: Executor, id: number): Promise<NoteReason | undefined> {
  const row = await db.selectFrom('policy_note_reason').select(REASON_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && reasonOf(row);
}

export async function findReasonByText(db: Executor, text: string): Promise<NoteReason | undefined> {
  const row = await db
    .selectFrom('policy_note_reason')
    .select(REASON_COLUMNS)
    .where('reason_text', '=', text)
    .executeTakeFirst();
  return row && reasonOf(row);
}

/** Adds a reason (active); answers its id. */
export async function insertReason(
  db: Executor,
  reason: { text: string; displayOrder: number; isDefault: boolean; at: string },
): Promise<number> {
  const row = await db
    .insertInto('policy_note_reason')
    .values({
      reason_text: reason.text,
      is_active: 1,
      display_order: reason.displayOrder,
      is_default: reason.isDefault ? 1 : 0,
      etl_at: reason.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The next free display order (after the last one). */
export async function nextDisplayOrder(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('policy_note_reason')
    .select((eb) => eb.fn.max('display_order').as('last'))
    .executeTakeFirst();
  return (row?.last ?? 0) + 10;
}

/** No reason is the default any more (before another becomes it). */
export async function clearDefaultReason(db: Executor): Promise<void> {
  await db.updateTable('policy_note_reason').set({ is_default: 0 }).where('is_default', '=', 1).execute();
}

/** Stops offering a reason; answers whether it was active. */
export async function deactivateReason(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('policy_note_reason')
    .set({ is_active: 0, etl_at: at })
    .where('id', '=', id)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Writes a note; answers its id. */
export async function insertNote(
  db: Executor,
  note: Omit<PolicyNoteRecord, 'id' | 'reason'> & { readonly reasonId: number },
): Promise<number> {
  const row = await db
    .insertInto('policy_note')
    .values({
      policy_header_id: note.policyHeaderId,
      policy_detail_id: note.policyDetailId,
      note_text: note.text,
      user_id: note.userId,
      policy_note_reason_id: note.reasonId,
      created_at: note.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Every note of a policy with its reason, oldest first (by the header's index). */
export async function notesOfPolicy(db: Executor, policyHeaderId: number): Promise<PolicyNoteRecord[]> {
  const rows = await db
    .selectFrom('policy_note as n')
    .innerJoin('policy_note_reason as r', 'r.id', 'n.policy_note_reason_id')
    .select([
      'n.id as note_id',
      'n.policy_header_id',
      'n.policy_detail_id',
      'n.note_text',
      'n.user_id',
      'n.created_at',
      ...REASON_COLUMNS.map((c) => `r.${c}` as const),
    ])
    .where('n.policy_header_id', '=', policyHeaderId)
    .orderBy('n.id')
    .execute();
  return rows.map((row) => ({
    id: row.note_id,
    policyHeaderId: row.policy_header_id,
    policyDetailId: row.policy_detail_id,
    text: row.note_text,
    userId: row.user_id,
    createdAt: row.created_at,
    reason: reasonOf(row),
  }));
}
