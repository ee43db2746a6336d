import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

/**
 * The one description of every table. Portable column rules (SQLite and PostgreSQL alike):
 * timestamps are ISO 8601 UTC text, flags are integers 0/1, structured values are JSON text,
 * money is an integer count of minor units.
 *
 * Each area adds its own tables from its `tables.ts` (`declare module '../db/database.js'`, declaration
 * merging), so db/ stays below the areas that use it: `Kysely<Database>` still knows every table.
 */
export interface Database {
  brand: BrandTable;
}

export interface BrandTable {
  id: Generated<number>;
  code: string;
  name: string;
  created_at: string;
}
export type BrandRow = Selectable<BrandTable>;
export type NewBrandRow = Insertable<BrandTable>;

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** What a repository function runs on: the pool, or a transaction the caller opened. */
export type Executor = Db | Tx;
