import { sql } from 'kysely';
import type { Tx } from './database.js';
import { dialectOf } from './dialect.js';

/**
 * Holds a lock on `name` until the transaction ends, so check-then-write sequences on rows that
 * may not exist yet (a count against a limit, then the insert) run one at a time: PostgreSQL's
 * transaction-scoped advisory lock on the name's hash (a later statement of the transaction sees
 * what the holder before it committed); SQLite needs none, a transaction there is one writer.
 */
export async function lockName(tx: Tx, name: string): Promise<void> {
  if (dialectOf(tx) === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(tx);
}
