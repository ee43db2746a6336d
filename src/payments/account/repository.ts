import type { Executor } from '../../db/database.js';
import type { AccountEntry, AccountOwner, EntryKind } from './ledger.js';
import type { PartnerAccountEntryTable } from './tables.js';
import type { Selectable } from 'kysely';

/** Every query of the `partner_account_entry` table. Rows stay here; callers see `AccountEntry`. */

type EntryRow = Selectable<PartnerAccountEntryTable>;

function toEntry(row: EntryRow): AccountEntry {
  return {
    idempotencyKey: row.idempotency_key,
    paymentId: row.payment_id,
    partnerId: row.partner_id,
    brandCode: row.brand_code,
    kind: row.kind as EntryKind,
    amountMinor: row.amount_minor,
    currency: row.currency,
    reference: row.reference,
    createdAt: row.created_at,
  };
}

/** Writes an entry; false (nothing written) when another call already holds its idempotency key. */
export async function insertEntry(db: Executor, entry: AccountEntry): Promise<boolean> {
  const result = await db
    .insertInto('partner_account_entry')
    .values({
      idempotency_key: entry.idempotencyKey,
      payment_id: entry.paymentId,
      partner_id: entry.partnerId,
      brand_code: entry.brandCode,
      kind: entry.kind,
      amount_minor: entry.amountMinor,
      currency: entry.currency,
      reference: entry.reference,
      created_at: entry.createdAt,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function findEntry(db: Executor, idempotencyKey: string): Promise<AccountEntry | undefined> {
  const row = await db
    .selectFrom('partner_account_entry')
    .selectAll()
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  return row && toEntry(row);
}

/** One payment's entries, in the order they were written. */
export async function paymentEntries(db: Executor, paymentId: string): Promise<AccountEntry[]> {
  const rows = await db
    .selectFrom('partner_account_entry')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('id')
    .execute();
  return rows.map(toEntry);
}

/** An account's entries (a partner at a brand), in the order they were written. */
export async function accountEntries(db: Executor, owner: AccountOwner): Promise<AccountEntry[]> {
  const rows = await db
    .selectFrom('partner_account_entry')
    .selectAll()
    .where('partner_id', '=', owner.partnerId)
    .where('brand_code', '=', owner.brandCode)
    .orderBy('id')
    .execute();
  return rows.map(toEntry);
}
