import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// Quotes: one row per stored quote; the contract's nested input and prices are JSON text.
export async function up(db: Kysely<unknown>): Promise<void> {
  const long = bigintType(db);
  await withIdColumn(db, db.schema.createTable('quote'))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('partner_id', long, (c) => c.notNull())
    .addColumn('partner_code', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('quote_type', 'text', (c) => c.notNull())
    .addColumn('client_session_id', 'text')
    .addColumn('customer_user_id', long, (c) => c.notNull().defaultTo(0))
    .addColumn('input_json', 'text', (c) => c.notNull())
    .addColumn('pricing_json', 'text', (c) => c.notNull())
    .addColumn('validation_json', 'text', (c) => c.notNull())
    .addColumn('client_info_json', 'text')
    .addColumn('priced_version', 'text', (c) => c.notNull())
    .addColumn('has_config_changed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_purchase_initiated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_purchased', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('policy_number', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('evaluated_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_by_user_id', long, (c) => c.notNull())
    .addColumn('created_by_username', 'text', (c) => c.notNull())
    .addColumn('updated_by_user_id', long, (c) => c.notNull())
    .addColumn('updated_by_username', 'text', (c) => c.notNull())
    .execute();
  // Reads are always by id within the caller's brand and partner.
  await db.schema
    .createIndex('quote_partner_idx')
    .on('quote')
    .columns(['brand_code', 'partner_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quote').execute();
}
