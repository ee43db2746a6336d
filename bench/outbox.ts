// The outbox as the bench sees it from its own process: how many messages wait, and waiting
// until the server's worker has delivered them all (purchaseWithDocuments, run.ts).
import { loadConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import type { Db } from '../src/db/database.js';

export interface OutboxWatch {
  /** Messages not yet delivered (PENDING). */
  pending(): Promise<number>;
  /**
   * Marks every waiting message SENT without delivering it: e-mails of earlier rows, whose server
   * ran no worker, so that the documents row renders its own purchases' documents only.
   */
  discardPending(): Promise<number>;
  /** The key and creation of each message of `kind` created since `since` (ISO). */
  createdSince(kind: string, since: string): Promise<{ key: string; createdAt: string }[]>;
  /** Resolves once nothing is PENDING; throws after `timeoutMs` (the worker fell behind for good). */
  drained(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export function watchOutbox(env: Record<string, string>): OutboxWatch {
  const db: Db = connectDatabase(loadConfig({ ...process.env, ...env }).database);
  const pending = async () => {
    const row = await db
      .selectFrom('outbox_message')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('state', '=', 'PENDING')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return {
    pending,
    async discardPending() {
      const result = await db
        .updateTable('outbox_message')
        .set({ state: 'SENT', updated_at: new Date().toISOString() })
        .where('state', '=', 'PENDING')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async createdSince(kind, since) {
      const rows = await db
        .selectFrom('outbox_message')
        .select(['message_key', 'created_at'])
        .where('kind', '=', kind)
        .where('created_at', '>=', since)
        .execute();
      return rows.map((row) => ({ key: row.message_key, createdAt: row.created_at }));
    },
    async drained(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const left = await pending();
        if (left === 0) return;
        if (Date.now() > deadline) throw new Error(`outbox: ${left} messages still pending after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => db.destroy(),
  };
}
