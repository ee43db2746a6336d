import { createHash } from 'node:crypto';
import type { Executor, Tx } from '../db/database.js';
import type { ScreeningLinkRow } from './tables.js';

/** Every query of the `screening_link` table: the link's value is kept only as its sha256. */

/** A traveller's hosted-page link as the service sees it (never its value). */
export interface StoredScreeningLink {
  readonly id: string;
  readonly quoteId: string;
  readonly brandCode: string;
  readonly partnerId: number;
  readonly travellerGuid: string;
  readonly returnUrl: string;
  readonly language: string;
  readonly expiresAt: string;
  readonly revokedAt?: string;
  readonly createdAt: string;
}

export const linkValueHash = (value: string): string => createHash('sha256').update(value, 'utf8').digest('base64url');

const toLink = (row: ScreeningLinkRow): StoredScreeningLink => ({
  id: row.id,
  quoteId: row.quote_id,
  brandCode: row.brand_code,
  partnerId: row.partner_id,
  travellerGuid: row.traveller_guid,
  returnUrl: row.return_url,
  language: row.language,
  expiresAt: row.expires_at,
  ...(row.revoked_at ? { revokedAt: row.revoked_at } : {}),
  createdAt: row.created_at,
});

/** Stores a new link for the traveller and revokes every earlier one (one transaction: one live link). */
export async function replaceScreeningLink(
  trx: Tx,
  link: Omit<StoredScreeningLink, 'revokedAt'>,
  value: string,
): Promise<void> {
  await trx
    .updateTable('screening_link')
    .set({ revoked_at: link.createdAt })
    .where('quote_id', '=', link.quoteId)
    .where('traveller_guid', '=', link.travellerGuid)
    .where('revoked_at', 'is', null)
    .execute();
  await trx
    .insertInto('screening_link')
    .values({
      id: link.id,
      value_hash: linkValueHash(value),
      quote_id: link.quoteId,
      brand_code: link.brandCode,
      partner_id: link.partnerId,
      traveller_guid: link.travellerGuid,
      return_url: link.returnUrl,
      language: link.language,
      expires_at: link.expiresAt,
      revoked_at: null,
      created_at: link.createdAt,
    })
    .execute();
}

/** The link whose value this is (live, expired or revoked), or undefined. */
export async function findScreeningLink(db: Executor, value: string): Promise<StoredScreeningLink | undefined> {
  const row = await db
    .selectFrom('screening_link')
    .selectAll()
    .where('value_hash', '=', linkValueHash(value))
    .executeTakeFirst();
  return row ? toLink(row) : undefined;
}
