import type { Kysely } from 'kysely';
import { bigintType, nowIsoDefault, withIdColumn } from '../columns.js';

/**
 * Registered clients and the interfaces each may request tokens for. Reference data of the
 * contract (spec §4.1), so it ships with the schema; see docs/api-contract.md.
 */
export const CLIENT_INTERFACES: Record<string, { name: string; interfaces: number[] }> = {
  API: { name: 'Partner API integrations', interfaces: [8, 5] },
  InternalApi: { name: 'Internal services', interfaces: [2] },
  ngPublicApp: { name: 'Public website', interfaces: [1] },
  mobileApp: { name: 'Mobile app', interfaces: [3] },
  ngUnderwriterApp: { name: 'Underwriter website', interfaces: [6] },
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = bigintType(db);
  await withIdColumn(db, db.schema.createTable('partner'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status_code', 'text', (c) => c.notNull().defaultTo('ACTIVE'))
    .addColumn('is_on_account_purchase_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(nowIsoDefault(db)))
    .execute();
  await withIdColumn(db, db.schema.createTable('app_user'))
    .addColumn('partner_id', id, (c) => c.notNull().references('partner.id'))
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('login_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('user_type_id', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(nowIsoDefault(db)))
    .addColumn('deactivated_at', 'text')
    .execute();
  await db.schema
    .createTable('user_brand')
    .addColumn('user_id', id, (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('brand_code', 'text', (c) => c.notNull().references('brand.code'))
    .addPrimaryKeyConstraint('user_brand_pk', ['user_id', 'brand_code'])
    .execute();
  await db.schema
    .createTable('oauth_client')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oauth_client_interface')
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_client.client_id'))
    .addColumn('customer_interface_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_client_interface_pk', ['client_id', 'customer_interface_id'])
    .execute();
  await withIdColumn(db, db.schema.createTable('signing_key'))
    .addColumn('kid', 'text', (c) => c.notNull().unique())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('retired_at', 'text')
    .addColumn('verify_until', 'text')
    .execute();
  await withIdColumn(db, db.schema.createTable('refresh_token'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', id, (c) => c.notNull().references('app_user.id'))
    .addColumn('brand_code', 'text', (c) => c.notNull())
    .addColumn('customer_interface_id', 'integer', (c) => c.notNull())
    .addColumn('user_type_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('family_expires_at', 'text', (c) => c.notNull())
    .addColumn('idle_expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('refresh_token_family_idx').on('refresh_token').column('family_id').execute();
  await db.schema
    .createTable('login_failure')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .execute();

  const clients = Object.entries(CLIENT_INTERFACES);
  await db
    .insertInto('oauth_client' as never)
    .values(clients.map(([clientId, c]) => ({ client_id: clientId, name: c.name })))
    .execute();
  await db
    .insertInto('oauth_client_interface' as never)
    .values(
      clients.flatMap(([clientId, c]) => c.interfaces.map((i) => ({ client_id: clientId, customer_interface_id: i }))),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'login_failure',
    'refresh_token',
    'signing_key',
    'oauth_client_interface',
    'oauth_client',
    'user_brand',
    'app_user',
    'partner',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
