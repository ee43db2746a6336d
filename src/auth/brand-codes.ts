import type { AppContext } from '../context.js';
import type { Executor } from '../db/database.js';
import { BRAND_CODES, isBrandCode, type BrandCode } from '../kernel/brands.js';
import { Conflict, InvalidInput, NotFound } from '../kernel/errors.js';
import {
  deletePartnerBrandCode,
  findPartnerBrandCode,
  insertPartnerBrandCode,
  listPartnerBrandCodes,
  type PartnerBrandCodeRecord,
} from './brand-code-repository.js';
import { findPartnerByCode, type PartnerRecord } from './repository.js';

/**
 * Partner brand codes (spec §5 note 6): a partner's own white-label code, mapped to one of the four
 * brands, accepted by the token endpoint in place of `{brandCode}`. The token is then the mapped
 * brand's, and only that partner's users get one with it. Managed by operators (`partner brand-code`).
 */

/** 2–32 characters of a-z, 0-9 and -, starting with a letter; compared in lower case. */
export const PARTNER_BRAND_CODE = /^[a-z][a-z0-9-]{1,31}$/;

/** What `{brandCode}` of the token path names: a brand, or a partner's code for one (then only that partner). */
export interface TokenBrand {
  readonly brandCode: BrandCode;
  readonly partnerId?: number;
}

export async function tokenBrandOf(db: Executor, code: string): Promise<TokenBrand | undefined> {
  if (isBrandCode(code)) return { brandCode: code };
  const key = code.toLowerCase();
  if (!PARTNER_BRAND_CODE.test(key)) return undefined;
  const found = await findPartnerBrandCode(db, key);
  return found && isBrandCode(found.brandCode) ? { brandCode: found.brandCode, partnerId: found.partnerId } : undefined;
}

async function partnerOf(context: AppContext, partnerCode: string): Promise<PartnerRecord> {
  const partner = await findPartnerByCode(context.db, partnerCode);
  if (!partner)
    throw new NotFound('UNKNOWN_PARTNER', `Partner '${partnerCode}' does not exist.`, {
      property: 'partner',
      value: partnerCode,
    });
  return partner;
}

export async function addPartnerBrandCode(
  context: AppContext,
  request: { partnerCode: string; code: string; brandCode: string },
): Promise<PartnerBrandCodeRecord> {
  const code = request.code.toLowerCase();
  if (!PARTNER_BRAND_CODE.test(code) || isBrandCode(code))
    throw new InvalidInput(
      'INVALID_BRAND_CODE',
      'A partner brand code is 2–32 characters of a-z, 0-9 and -, starting with a letter, and not one of the four brands.',
      { property: 'code', value: request.code },
    );
  if (!isBrandCode(request.brandCode))
    throw new InvalidInput('UNKNOWN_BRAND', `The brand must be one of ${BRAND_CODES.join(', ')}.`, {
      property: 'brand',
      value: request.brandCode,
    });
  const partner = await partnerOf(context, request.partnerCode);
  if (await findPartnerBrandCode(context.db, code))
    throw new Conflict('BRAND_CODE_EXISTS', `The brand code '${code}' is already in use.`, {
      property: 'code',
      value: code,
    });
  const record = { code, partnerId: partner.id, brandCode: request.brandCode };
  await insertPartnerBrandCode(context.db, { ...record, createdAt: context.clock().toISOString() });
  return record;
}

export async function removePartnerBrandCode(context: AppContext, partnerCode: string, code: string): Promise<void> {
  const partner = await partnerOf(context, partnerCode);
  if (!(await deletePartnerBrandCode(context.db, partner.id, code.toLowerCase())))
    throw new NotFound('UNKNOWN_BRAND_CODE', `Partner '${partnerCode}' has no brand code '${code}'.`, {
      property: 'code',
      value: code,
    });
}

export async function partnerBrandCodes(context: AppContext, partnerCode: string): Promise<PartnerBrandCodeRecord[]> {
  const partner = await partnerOf(context, partnerCode);
  return listPartnerBrandCodes(context.db, partner.id);
}
