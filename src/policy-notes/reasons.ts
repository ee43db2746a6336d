import type { Db } from '../db/database.js';
import { NoteReasonConflict } from './errors.js';
import { REASON_TEXT_MAX, type NoteReason } from './model.js';
import {
  clearDefaultReason,
  deactivateReason,
  findReason,
  findReasonByText,
  insertReason,
  listReasons,
  nextDisplayOrder,
} from './repository.js';

/** The note reasons' list, managed by the insurer (cli.ts): one default, which stays active. */

export { listReasons };

export interface NewReason {
  readonly text: string;
  readonly displayOrder?: number;
  readonly isDefault?: boolean;
}

/** Adds an active reason (the new default when asked: the old one stops being it). */
export async function addReason(db: Db, reason: NewReason, at: string): Promise<NoteReason> {
  const text = reason.text.trim();
  if (text.length === 0 || text.length > REASON_TEXT_MAX)
    throw new NoteReasonConflict(`A reason's text is 1..${REASON_TEXT_MAX} characters.`);
  return db.transaction().execute(async (tx) => {
    if (await findReasonByText(tx, text)) throw new NoteReasonConflict(`The reason '${text}' exists already.`);
    if (reason.isDefault) await clearDefaultReason(tx);
    const displayOrder = reason.displayOrder ?? (await nextDisplayOrder(tx));
    const id = await insertReason(tx, { text, displayOrder, isDefault: reason.isDefault === true, at });
    return (await findReason(tx, id)) as NoteReason;
  });
}

/** Stops offering a reason; notes that used it keep it. The default cannot be deactivated. */
export async function retireReason(db: Db, id: number, at: string): Promise<NoteReason> {
  return db.transaction().execute(async (tx) => {
    const reason = await findReason(tx, id);
    if (!reason) throw new NoteReasonConflict(`No reason has id ${String(id)}.`);
    if (reason.isDefault)
      throw new NoteReasonConflict('The default reason stays active: add another reason with --default first.');
    await deactivateReason(tx, id, at);
    return (await findReason(tx, id)) as NoteReason;
  });
}
