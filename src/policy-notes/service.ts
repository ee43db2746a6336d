import type { Clock } from '../context.js';
import type { Executor, Tx } from '../db/database.js';
import { containsCardNumber } from '../kernel/card-numbers/card-numbers.js';
import { may, type Operator } from '../operators/model.js';
import { recordOperatorAction } from '../operators/audit-repository.js';
import { transactionRef } from '../policies/repository-transaction-ref.js';
import { InvalidNoteText, NotedPolicyNotFound, NoteReasonNotUsable, OperatorNotAllowed } from './errors.js';
import { NOTE_TEXT_MAX, type PolicyNoteRecord } from './model.js';
import { findReason, insertNote } from './repository.js';

/** What adding a note needs: the pool, or a transaction the caller holds (then the note commits with it). */
export interface PolicyNoteDeps {
  readonly db: Executor;
  readonly clock: Clock;
}

export interface NewPolicyNote {
  readonly policyNumber: string;
  /** The transaction the note is about; absent: the policy's latest. */
  readonly sequenceNumber?: number;
  readonly reasonId: number;
  readonly text: string;
}

// C0 and C1 controls but tab and line breaks (a note may have paragraphs), and DEL.
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** The note's text as kept (line breaks as \n, no trailing blanks); throws InvalidNoteText. */
export function checkedNoteText(text: string): string {
  const kept = text.replace(/\r\n?/g, '\n').trim();
  if (kept.length === 0) throw new InvalidNoteText('A note needs some text.');
  if (Array.from(kept).length > NOTE_TEXT_MAX)
    throw new InvalidNoteText(`A note holds at most ${NOTE_TEXT_MAX} characters.`);
  if (CONTROL.test(kept)) throw new InvalidNoteText('A note cannot hold control characters.');
  // Card numbers are never kept anywhere (checklist 46), notes included.
  if (containsCardNumber(kept)) throw new InvalidNoteText('A note cannot hold a card number.');
  return kept;
}

/** Runs `work` in the caller's transaction when `db` is one, else in a transaction of its own. */
function inTransaction<T>(db: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Tx) : db.transaction().execute(work);
}

/**
 * Writes a note on a policy transaction, as `operator`, and its audit entry, in one transaction
 * (the caller's, when `deps.db` is one: referral decisions and ATTENTION resolutions note what
 * they did in their own commit). The reason must be active; the text 1..2000 characters, no
 * control characters nor a card number. Throws OperatorNotAllowed, NoteReasonNotUsable, InvalidNoteText,
 * NotedPolicyNotFound.
 */
export async function addPolicyNote(
  deps: PolicyNoteDeps,
  operator: Operator,
  note: NewPolicyNote,
): Promise<PolicyNoteRecord> {
  if (!may(operator, 'note.add')) throw new OperatorNotAllowed('note.add');
  const text = checkedNoteText(note.text);
  const at = deps.clock().toISOString();
  return inTransaction(deps.db, async (tx) => {
    const reason = await findReason(tx, note.reasonId);
    if (!reason?.isActive) throw new NoteReasonNotUsable(note.reasonId);
    const target = await transactionRef(tx, note.policyNumber, note.sequenceNumber);
    if (!target) throw new NotedPolicyNotFound(note.policyNumber, note.sequenceNumber);
    const record = {
      policyHeaderId: target.policyHeaderId,
      policyDetailId: target.policyDetailId,
      text,
      userId: operator.id,
      createdAt: at,
    };
    const id = await insertNote(tx, { ...record, reasonId: reason.id });
    await recordOperatorAction(tx, {
      operatorId: operator.id,
      action: 'note.add',
      subjectType: 'policy_detail',
      subjectId: String(target.policyDetailId),
      after: {
        policyNoteId: id,
        policyNumber: note.policyNumber,
        sequenceNumber: target.sequenceNumber,
        policyNoteReasonId: reason.id,
      },
      reason: reason.text,
      at,
    });
    return { id, ...record, reason };
  });
}
