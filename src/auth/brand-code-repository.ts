import type { Executor } from '../db/database.js';

/** The `partner_brand_code` table's only queries (its owning repository). */

export interface PartnerBrandCodeRecord {
  readonly code: string;
  readonly partnerId: number;
  readonly brandCode: string;
}

export async function insertPartnerBrandCode(
  db: Executor,
  row: PartnerBrandCodeRecord & { readonly createdAt: string },
): Promise<void> {
  await db
    .insertInto('partner_brand_code')
    .values({ code: row.code, partner_id: row.partnerId, brand_code: row.brandCode, created_at: row.createdAt })
    .execute();
}

/** Removes the partner's code; false when the partner has no such code. */
export async function deletePartnerBrandCode(db: Executor, partnerId: number, code: string): Promise<boolean> {
  const result = await db
    .deleteFrom('partner_brand_code')
    .where('partner_id', '=', partnerId)
    .where('code', '=', code)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function findPartnerBrandCode(db: Executor, code: string): Promise<PartnerBrandCodeRecord | undefined> {
  const row = await db
    .selectFrom('partner_brand_code')
    .select(['code', 'partner_id', 'brand_code'])
    .where('code', '=', code)
    .executeTakeFirst();
  return row && { code: row.code, partnerId: row.partner_id, brandCode: row.brand_code };
}

export async function listPartnerBrandCodes(db: Executor, partnerId: number): Promise<PartnerBrandCodeRecord[]> {
  const rows = await db
    .selectFrom('partner_brand_code')
    .select(['code', 'partner_id', 'brand_code'])
    .where('partner_id', '=', partnerId)
    .orderBy('code')
    .execute();
  return rows.map((row) => ({ code: row.code, partnerId: row.partner_id, brandCode: row.brand_code }));
}
