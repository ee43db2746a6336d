import { PostgresDialect, PostgresIntrospector, type DatabaseIntrospector, type DatabaseMetadataOptions, type Kysely, type TableMetadata } from 'kysely';

// undefined_table, undefined_column: what a catalog lookup by name raises when the object was
// renamed or dropped between the catalog scan and the lookup.
const VANISHED = new Set(['42P01', '42703']);
const ATTEMPTS = 5;
const PAUSE_MS = 20;

/**
 * Runs `scan` again (up to five times, pausing longer each time) while it fails because an
 * object it looked up by name vanished under it; any other failure is thrown at once.
 */
export async function retryWhileVanishing<T>(scan: () => Promise<T>, pauseMs = PAUSE_MS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await scan();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !VANISHED.has(code)) throw error;
    }
    // DDL elsewhere comes in bursts (a migration, a test's setup): let it finish.
    await new Promise((resolve) => setTimeout(resolve, pauseMs * attempt));
  }
}

/**
 * Kysely's introspection (the migrator asks it whether its own tables exist) scans every
 * schema's columns and looks each table up by name; another schema's DDL committing mid-scan
 * (test files migrate in parallel schemas; operators may share a database) makes that lookup
 * fail with "relation does not exist". Catalog lookups by name do not follow the query's
 * snapshot, so the scan is retried.
 */
class RaceTolerantIntrospector extends PostgresIntrospector {
  override getTables(options?: DatabaseMetadataOptions): Promise<TableMetadata[]> {
    return retryWhileVanishing(() => super.getTables(options));
  }
}

/** PostgreSQL as Kysely ships it, with introspection that survives other schemas' DDL. */
export class SharedDatabasePostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new RaceTolerantIntrospector(db);
  }
}
