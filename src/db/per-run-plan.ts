import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import type { Executor } from './database.js';

/**
 * Runs a builder query as an unnamed statement, which PostgreSQL plans on every run with that
 * run's values, instead of as a named prepared statement that may keep a generic plan
 * (docs/decisions.md, "Generic plans"). For a range bound whose best plan depends on the value:
 * a generic plan of `expires_at <= $1` assumes a third of the table and scans it all, where a
 * housekeeping delete of what just expired touches a few rows through the index.
 */
export async function runPlannedPerRun<R>(db: Executor, query: Compilable<R>): Promise<QueryResult<R>> {
  const { sql, parameters } = query.compile();
  return db.executeQuery<R>(CompiledQuery.raw(sql, [...parameters]));
}
