import { CompiledQuery } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { DIALECT } from './database.js';

/**
 * The engine's plan of a compiled query, as text: PostgreSQL's EXPLAIN with sequential scans priced
 * out (so a table without a usable index still shows its scan), SQLite's EXPLAIN QUERY PLAN details.
 */
export function queryPlanOf(db: Db, query: CompiledQuery): Promise<string> {
  return db.connection().execute(async (connection) => {
    if (DIALECT === 'postgres') {
      await connection.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
      const { rows } = await connection.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      await connection.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    }
    const { rows } = await connection.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return rows.map((r) => r.detail).join('\n');
  });
}
