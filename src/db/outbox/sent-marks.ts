import type { Clock } from '../../context.js';
import type { Db, Tx } from '../database.js';
import type { OutboxMessage } from './repository.js';
import { markSent } from './repository-lease.js';

/** A delivered message to mark SENT, with work to commit together with its mark. */
export interface SentMark {
  readonly message: OutboxMessage;
  readonly recordSent?: ((tx: Tx, message: OutboxMessage) => Promise<void>) | undefined;
}

interface AwaitedMark extends SentMark {
  readonly resolve: (marked: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The SENT marks of one worker, written in groups: the first mark is written at once, marks asked
 * while it is being written go together with the next statement (a transaction when some carry
 * `recordSent`, each committed with its own mark). Resolves true when marked, false when the
 * lease was lost meanwhile (another worker took the message over).
 */
export function groupedSentMarks(db: Db, owner: string, clock: Clock): (mark: SentMark) => Promise<boolean> {
  let pending: AwaitedMark[] = [];
  let writing = false;

  const write = async (group: readonly AwaitedMark[]): Promise<void> => {
    const ids = group.map((w) => w.message.id);
    const at = clock().toISOString();
    try {
      const marked = group.some((w) => w.recordSent)
        ? await db.transaction().execute(async (tx) => {
            const marked = await markSent(tx, ids, owner, at);
            for (const w of group) if (w.recordSent && marked.has(w.message.id)) await w.recordSent(tx, w.message);
            return marked;
          })
        : await markSent(db, ids, owner, at);
      for (const w of group) w.resolve(marked.has(w.message.id));
    } catch (error) {
      // One message's recordSent must not hold up the others' marks: each alone, as without grouping.
      if (group.length === 1) return (group[0] as AwaitedMark).reject(error);
      for (const w of group) await write([w]);
    }
  };

  const flush = async () => {
    writing = true;
    while (pending.length > 0) {
      const group = pending;
      pending = [];
      await write(group);
    }
    writing = false;
  };

  return (mark) =>
    new Promise<boolean>((resolve, reject) => {
      pending.push({ ...mark, resolve, reject });
      if (!writing) void flush();
    });
}
