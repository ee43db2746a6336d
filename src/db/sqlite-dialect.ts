import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type MigrationLockOptions,
} from 'kysely';

/**
 * Every transaction begins IMMEDIATE: it takes the file's write lock up front (waiting up to
 * busy_timeout) instead of upgrading a read snapshot later, which in WAL mode fails at once
 * with SQLITE_BUSY when another process committed in between.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely's SQLite adapter assumes one process: it runs migrations outside a transaction and
 * takes no lock. SQLite has transactional DDL, so this adapter migrates in a transaction whose
 * first statement is a write, so two processes never apply one migration twice.
 */
class MigratingSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }

  override async acquireMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    await sql`update ${sql.table(options.lockTable)} set is_locked = 1 where id = ${options.lockRowId}`.execute(db);
  }
}

export class DurableSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];

  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new MigratingSqliteAdapter();
  }
}
