import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';
import { dialectOf } from '../dialect.js';

// Versioned catalogue: a version row per distinct import, its documents and its PDS files.
export async function up(db: Kysely<unknown>): Promise<void> {
  const long = bigintType(db);
  const bytes = dialectOf(db) === 'postgres' ? 'bytea' : 'blob';
  await withIdColumn(db, db.schema.createTable('catalogue_version'))
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('source_hash', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .execute();
  await withIdColumn(db, db.schema.createTable('catalogue_document'))
    .addColumn('version_id', long, (c) => c.notNull().references('catalogue_version.id').onDelete('cascade'))
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addUniqueConstraint('catalogue_document_version_brand_kind', ['version_id', 'brand_code', 'kind'])
    .execute();
  await withIdColumn(db, db.schema.createTable('catalogue_pds'))
    .addColumn('version_id', long, (c) => c.notNull().references('catalogue_version.id').onDelete('cascade'))
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('insurance_contract_id', long, (c) => c.notNull())
    .addColumn('document_key', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content', bytes, (c) => c.notNull())
    .addUniqueConstraint('catalogue_pds_version_contract_key', ['version_id', 'insurance_contract_id', 'document_key'])
    .execute();
  await db.schema.createIndex('catalogue_version_hash').on('catalogue_version').column('content_hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalogue_pds').execute();
  await db.schema.dropTable('catalogue_document').execute();
  await db.schema.dropTable('catalogue_version').execute();
}
