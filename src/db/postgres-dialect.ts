import { PostgresDialect, PostgresIntrospector, type DatabaseIntrospector, type DatabaseMetadataOptions, type Kysely, type TableMetadata } from 'kysely';

// undefined_table, undefined_column: what a catalog lookup by name raises when the object was
// renamed or dropped between the catalog scan and the lookup.
const VANISHED = new Set(['42P01', '42703']);
const ATTEMPTS = 5;
const PAUSE_MS = 20;

/**
 * Kysely's introspection (the migrator asks it whether its own tables exist) scans every
 * schema's columns and looks each table up by name; another schema's DDL committing mid-scan
 * (tests run in parallel schemas; operators may share a database) makes that lookup fail.
 * Catalog lookups by name do not follow the query's snapshot, so the scan is retried after a pause.
 */
class RaceTolerantIntrospector extends PostgresIntrospector {
  override async getTables(options?: DatabaseMetadataOptions): Promise<TableMetadata[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await super.getTables(options);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= ATTEMPTS || typeof code !== 'string' || !VANISHED.has(code)) throw error;
      }
      // DDL elsewhere comes in bursts (a migration, a test's setup): let it finish.
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS * attempt));
    }
  }
}

/** PostgreSQL as Kysely ships it, with introspection that survives other schemas' DDL. */
export class SharedDatabasePostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new RaceTolerantIntrospector(db);
  }
}
