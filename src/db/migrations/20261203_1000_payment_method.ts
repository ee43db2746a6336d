import type { Kysely } from 'kysely';

// How each purchase, policy change and policy transaction is paid (kernel/money/payment-methods.ts):
// every row written before on-account purchases existed was paid by card.
const TABLES = ['purchase', 'policy_change', 'policy_detail'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES)
    await db.schema
      .alterTable(table)
      .addColumn('payment_method', 'text', (column) => column.notNull().defaultTo('CARD'))
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('payment_method').execute();
}
