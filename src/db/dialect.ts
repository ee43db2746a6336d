import type { Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

export const DIALECT_NAMES = ['sqlite', 'postgres'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/** Which engine a Kysely instance talks to; migrations and the rare engine-specific query ask this. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the question is about the engine only
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
