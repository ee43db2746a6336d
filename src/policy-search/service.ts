import { findPartnerByCode } from '../auth/repository.js';
import type { Executor } from '../db/database.js';
import { SEARCH_PAGE_MAX, type PolicySearch, type PolicySearchPage } from './model.js';
import { searchPolicies } from './repository.js';

export type { PolicySearch, PolicySearchPage, PolicyHit, SearchKind } from './model.js';
export { SEARCH_KINDS, SEARCH_PAGE_MAX } from './model.js';

/**
 * Policies matching `search` for an operator (every partner, every brand), newest first, at most
 * 50 a page; `after` is the previous page's `next`. Blank terms find nothing.
 */
export async function findPolicies(
  db: Executor,
  search: PolicySearch,
  page: { after?: number; limit?: number } = {},
): Promise<PolicySearchPage> {
  const limit = Math.max(1, Math.min(page.limit ?? SEARCH_PAGE_MAX, SEARCH_PAGE_MAX));
  const trimmed = trimmedSearch(search);
  if (!trimmed) return { hits: [] };
  let partnerId: number | undefined;
  if (trimmed.kind === 'partnerCode') {
    partnerId = (await findPartnerByCode(db, trimmed.partnerCode))?.id;
    if (partnerId === undefined) return { hits: [] };
  }
  const rows = await searchPolicies(db, trimmed, {
    limit: limit + 1,
    ...(page.after === undefined ? {} : { before: page.after }),
    ...(partnerId === undefined ? {} : { partnerId }),
  });
  const hits = rows.slice(0, limit);
  const last = hits.at(-1);
  return rows.length > limit && last ? { hits, next: last.policyHeaderId } : { hits };
}

/** The search with its terms trimmed; undefined when the term searched by is blank. */
function trimmedSearch(search: PolicySearch): PolicySearch | undefined {
  switch (search.kind) {
    case 'policyNumber': {
      const policyNumber = search.policyNumber.trim();
      return policyNumber ? { kind: 'policyNumber', policyNumber } : undefined;
    }
    case 'traveller': {
      const surname = search.surname.trim();
      const firstName = search.firstName?.trim();
      return surname ? { kind: 'traveller', surname, ...(firstName ? { firstName } : {}) } : undefined;
    }
    case 'email': {
      const email = search.email.trim();
      return email ? { kind: 'email', email } : undefined;
    }
    case 'bookingReference': {
      const bookingReference = search.bookingReference.trim();
      return bookingReference ? { kind: 'bookingReference', bookingReference } : undefined;
    }
    case 'partnerCode': {
      const partnerCode = search.partnerCode.trim();
      return partnerCode ? { kind: 'partnerCode', partnerCode } : undefined;
    }
  }
}
