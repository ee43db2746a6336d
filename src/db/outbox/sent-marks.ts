import type { Clock } from '../../context.js';
import type { Db, Tx } from '../database.js';
import { groupedWrites } from '../grouped-writes.js';
import type { OutboxMessage } from './repository.js';
import { markSent } from './repository-lease.js';

/** A delivered message to mark SENT, with work to commit together with its mark. */
export interface SentMark {
  readonly message: OutboxMessage;
  readonly recordSent?: ((tx: Tx, message: OutboxMessage) => Promise<void>) | undefined;
}

/**
 * The SENT marks of one worker, written in groups (db/grouped-writes.ts): the first mark is written
 * at once, marks asked while it is being written go together with the next statement (a
 * transaction when some carry `recordSent`, each committed with its own mark). Resolves true when
 * marked, false when the lease was lost meanwhile (another worker took the message over).
 */
export function groupedSentMarks(db: Db, owner: string, clock: Clock): (mark: SentMark) => Promise<boolean> {
  return groupedWrites<SentMark, boolean>(async (group) => {
    const ids = group.map((w) => w.message.id);
    const at = clock().toISOString();
    const marked = group.some((w) => w.recordSent)
      ? await db.transaction().execute(async (tx) => {
          const marked = await markSent(tx, ids, owner, at);
          for (const w of group) if (w.recordSent && marked.has(w.message.id)) await w.recordSent(tx, w.message);
          return marked;
        })
      : await markSent(db, ids, owner, at);
    return group.map((w) => marked.has(w.message.id));
  });
}
