import type { Kysely } from 'kysely';
import { bigintType, withIdColumn } from '../columns.js';

// Policies: header per policy, detail per transaction, and what each transaction wrote.
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);

  await withIdColumn(db, db.schema.createTable('policy_number_counter'))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last_value', big, (c) => c.notNull())
    .addUniqueConstraint('policy_number_counter_key', ['prefix', 'country', 'year'])
    .execute();

  await withIdColumn(db, db.schema.createTable('policy_header'))
    .addColumn('policy_number', 'text', (c) => c.notNull().unique())
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('partner_id', big, (c) => c.notNull())
    .addColumn('customer_user_id', big, (c) => c.notNull().defaultTo(0))
    // One policy per quote: a double submit can never issue twice.
    .addColumn('quote_id', 'text', (c) => c.notNull().unique())
    .addColumn('plan_json', 'text', (c) => c.notNull())
    .addColumn('currency_json', 'text', (c) => c.notNull())
    .addColumn('status_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sequence_number', 'integer', (c) => c.notNull())
    .addColumn('presentation_time_zone_code', 'text', (c) => c.notNull())
    .addColumn('destination_region', 'text')
    .addColumn('destination_codes_json', 'text', (c) => c.notNull())
    .addColumn('destination_names_json', 'text', (c) => c.notNull())
    .addColumn('display_destination_description', 'text')
    .addColumn('reference_policy_wording_id', big)
    .addColumn('regulatory_wording_translation_name', 'text')
    .addColumn('binder_id', big)
    .addColumn('excess_minor', big, (c) => c.notNull().defaultTo(0))
    .addColumn('external_memberships_json', 'text', (c) => c.notNull())
    .addColumn('policy_document_access_guid', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by_user_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by_user_id', big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('policy_header_partner_idx')
    .on('policy_header')
    .columns(['partner_id', 'created_at'])
    .execute();

  await withIdColumn(db, db.schema.createTable('policy_detail'))
    .addColumn('policy_header_id', big, (c) => c.notNull().references('policy_header.id'))
    .addColumn('sequence_number', 'integer', (c) => c.notNull())
    .addColumn('policy_detail_number', 'text', (c) => c.notNull().unique())
    .addColumn('action_type_id', 'integer', (c) => c.notNull())
    .addColumn('action_type', 'text', (c) => c.notNull())
    .addColumn('status_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('ip_address_country', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('departure_date', 'text', (c) => c.notNull())
    .addColumn('cover_end_date', 'text', (c) => c.notNull())
    .addColumn('address_json', 'text', (c) => c.notNull())
    .addColumn('specified_items_json', 'text', (c) => c.notNull())
    .addColumn('adventure_level', 'text')
    .addColumn('adventure_activities_json', 'text', (c) => c.notNull())
    .addColumn('payment_reference', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by_user_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by_user_id', big, (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('policy_detail_sequence_key', ['policy_header_id', 'sequence_number'])
    .execute();

  await withIdColumn(db, db.schema.createTable('policy_traveller'))
    .addColumn('policy_header_id', big, (c) => c.notNull().references('policy_header.id'))
    .addColumn('policy_detail_id', big, (c) => c.notNull().references('policy_detail.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('guid', 'text', (c) => c.notNull())
    .addColumn('display_order', 'integer', (c) => c.notNull())
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('surname', 'text', (c) => c.notNull())
    .addColumn('age', 'integer')
    .addColumn('email_address', 'text')
    .addColumn('land_line_phone_number', 'text')
    .addColumn('mobile_number', 'text')
    .addColumn('date_of_birth', 'text')
    .addColumn('travel_clear_json', 'text')
    .addUniqueConstraint('policy_traveller_guid_key', ['policy_detail_id', 'guid'])
    .execute();

  await withIdColumn(db, db.schema.createTable('policy_option'))
    .addColumn('policy_header_id', big, (c) => c.notNull().references('policy_header.id'))
    .addColumn('policy_detail_id', big, (c) => c.notNull().references('policy_detail.id'))
    .addColumn('plan_id', big, (c) => c.notNull())
    .addColumn('option_type_id', big, (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('display_order', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('policy_option_detail_idx').on('policy_option').column('policy_detail_id').execute();

  await withIdColumn(db, db.schema.createTable('policy_financial_value'))
    .addColumn('policy_header_id', big, (c) => c.notNull().references('policy_header.id'))
    .addColumn('policy_detail_id', big, (c) => c.notNull().references('policy_detail.id'))
    .addColumn('transaction_type_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('amount_minor', big, (c) => c.notNull())
    .addColumn('option_type_id', big)
    .addColumn('traveller_guid', 'text')
    .addColumn('dependent_guid', 'text')
    .execute();
  await db.schema
    .createIndex('policy_financial_value_detail_idx')
    .on('policy_financial_value')
    .column('policy_detail_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'policy_financial_value',
    'policy_option',
    'policy_traveller',
    'policy_detail',
    'policy_header',
    'policy_number_counter',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
