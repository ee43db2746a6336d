import type { Kysely } from 'kysely';

// The sandbox issuer's challenge page shows the merchant and links back to the partner's page
// (AuthoriseRequest `checkout`): kept with the payment, null for payments made before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sandbox_payment').addColumn('merchant_name', 'text').execute();
  await db.schema.alterTable('sandbox_payment').addColumn('return_url', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sandbox_payment').dropColumn('return_url').execute();
  await db.schema.alterTable('sandbox_payment').dropColumn('merchant_name').execute();
}
