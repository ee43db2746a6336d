import { sql, type Kysely } from 'kysely';
import { bigintType } from '../columns.js';

// Issue "Hardening II", item 11: an Idempotency-Key record names the record its request started or
// continued (`subject`: `purchase:<id>`, `policy-change:<id>:<attempt>`), written in the commit that
// starts or holds that record. A key is never deleted once it names one, so a retry after a 503 or a
// crash answers from it. The purchase's and the change's own `idempotency_key_id` said the same from
// the other side for the key that started them only (not a 3-D Secure continuation's), and a key
// freed after a 503 lost it: their links move to the key, and the columns go.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_key').addColumn('subject', 'text').execute();
  await sql`update idempotency_key set subject = (
      select 'purchase:' || p.public_id from purchase p where p.idempotency_key_id = idempotency_key.id
      order by p.id desc limit 1)
    where exists (select 1 from purchase p where p.idempotency_key_id = idempotency_key.id)`.execute(db);
  await sql`update idempotency_key set subject = (
      select 'policy-change:' || c.public_id || ':' || cast(c.attempt as text) from policy_change c
      where c.idempotency_key_id = idempotency_key.id order by c.id desc limit 1)
    where exists (select 1 from policy_change c where c.idempotency_key_id = idempotency_key.id)`.execute(db);
  await db.schema.dropIndex('purchase_idempotency_key_idx').execute();
  await db.schema.alterTable('purchase').dropColumn('idempotency_key_id').execute();
  await db.schema.alterTable('policy_change').dropColumn('idempotency_key_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const big = bigintType(db);
  await db.schema.alterTable('purchase').addColumn('idempotency_key_id', big).execute();
  await db.schema.createIndex('purchase_idempotency_key_idx').on('purchase').column('idempotency_key_id').execute();
  await db.schema.alterTable('policy_change').addColumn('idempotency_key_id', big).execute();
  await sql`update purchase set idempotency_key_id = (
      select max(k.id) from idempotency_key k where k.subject = 'purchase:' || purchase.public_id)`.execute(db);
  await sql`update policy_change set idempotency_key_id = (
      select max(k.id) from idempotency_key k
      where k.subject = 'policy-change:' || policy_change.public_id || ':' || cast(policy_change.attempt as text))`.execute(
    db,
  );
  await db.schema.alterTable('idempotency_key').dropColumn('subject').execute();
}
