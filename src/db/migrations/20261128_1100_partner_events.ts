import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// Partner events (issue 21): the event log, its counters, webhook endpoints and delivery attempts.
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await withIdColumn(db, db.schema.createTable('partner_event'))
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('source_key', 'text', (c) => c.notNull().unique())
    .addColumn('partner_id', big, (c) => c.notNull())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('policy_number', 'text')
    .addColumn('policy_sequence', 'integer')
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('data_json', 'text', (c) => c.notNull())
    .addColumn('endpoint_public_id', 'text')
    .addColumn('feed_position', big)
    .addColumn('published_at', 'text')
    .addUniqueConstraint('partner_event_policy_sequence', ['policy_number', 'policy_sequence'])
    .execute();
  // The pull feed: a partner's events by position; and the bulk redelivery's time range.
  await db.schema
    .createIndex('partner_event_feed_idx')
    .on('partner_event')
    .columns(['partner_id', 'brand_code', 'feed_position'])
    .execute();
  await db.schema
    .createIndex('partner_event_time_idx')
    .on('partner_event')
    .columns(['partner_id', 'brand_code', 'occurred_at'])
    .execute();
  await db.schema
    .createTable('event_counter')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_value', big, (c) => c.notNull())
    .execute();
  await withIdColumn(db, db.schema.createTable('webhook_endpoint'))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('partner_id', big, (c) => c.notNull())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_types_json', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_endpoint_partner_idx')
    .on('webhook_endpoint')
    .columns(['partner_id', 'brand_code'])
    .execute();
  await withIdColumn(db, db.schema.createTable('webhook_delivery_attempt'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('endpoint_public_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .addUniqueConstraint('webhook_delivery_attempt_number', ['event_id', 'endpoint_public_id', 'attempt'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_delivery_attempt', 'webhook_endpoint', 'event_counter', 'partner_event'])
    await db.schema.dropTable(table).execute();
}
