import type { Kysely } from 'kysely';

// The console's work queues (issue 31): a partner's users page shows each user's last token (the
// newest refresh token of the user), and disabling a user revokes the user's refresh tokens; both
// read refresh_token by user, which no index served. A partner's users are read by partner.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('refresh_token_user_idx')
    .on('refresh_token')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('app_user_partner_idx').on('app_user').columns(['partner_id', 'login_key']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('app_user_partner_idx').execute();
  await db.schema.dropIndex('refresh_token_user_idx').execute();
}
