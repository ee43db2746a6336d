import { endOfDayIn } from '../kernel/calendar/zones.js';
import type { PolicyRecord } from '../policies/model.js';
import { findPolicy } from '../policies/repository.js';
import { isDocumentLanguage, type DocumentLanguage } from './labels.js';
import { documentFileOf, policyByAccessValue, type StoredDocument, type StoredDocumentFile } from './repository.js';
import { documentsOfEveryTransaction, type DocumentDeps } from './service.js';

/** The customer's link (no bearer token): the policy's access value is the key, until a while after cover ends. */

export interface LinkDeps extends DocumentDeps {
  readonly now: Date;
  /** DOCUMENT_LINK_DAYS_AFTER_COVER. */
  readonly linkDaysAfterCover: number;
}

export interface OpenedLink {
  readonly policyNumber: string;
  readonly brandName: string;
  readonly language: DocumentLanguage;
  readonly documents: StoredDocument[];
}

const DAY_MS = 86_400_000;
// Access values are 43 characters (32 bytes base64url) or, for policies issued before, a 36-character UUID.
const PLAUSIBLE = /^[A-Za-z0-9_-]{20,100}$/;

/** When a policy's link stops opening: the end of the cover's last day in its zone, plus the configured days. */
export function linkExpiresAt(policy: PolicyRecord, daysAfterCover: number): Date {
  const latest = policy.details.at(-1);
  const coverEnd = latest?.coverEndDate ?? policy.audit.createdAt.slice(0, 10);
  return new Date(Date.parse(endOfDayIn(coverEnd, policy.presentationTimeZoneCode).at) + daysAfterCover * DAY_MS);
}

/** The policy behind a link value still open at `now`; undefined for any other value (not told apart). */
async function policyOfLink(deps: LinkDeps, accessValue: string): Promise<PolicyRecord | undefined> {
  if (!PLAUSIBLE.test(accessValue)) return undefined;
  const owner = await policyByAccessValue(deps.db, accessValue);
  if (!owner) return undefined;
  const policy = await findPolicy(deps.db, owner);
  if (!policy || policy.policyDocumentAccessGuid !== accessValue) return undefined;
  return linkExpiresAt(policy, deps.linkDaysAfterCover) < deps.now ? undefined : policy;
}

/** The documents a link opens (rendering missing ones), or undefined when it opens nothing. */
export async function openDocumentLink(deps: LinkDeps, accessValue: string): Promise<OpenedLink | undefined> {
  const policy = await policyOfLink(deps, accessValue);
  if (!policy) return undefined;
  const brand = (await deps.catalogue.snapshot()).brands.get(policy.brandCode);
  const language = brand?.brand.defaultLanguage ?? 'en';
  return {
    policyNumber: policy.policyNumber,
    brandName: brand?.brand.name ?? policy.brandCode,
    language: isDocumentLanguage(language) ? language : 'en',
    documents: await documentsOfEveryTransaction(deps, policy),
  };
}

/** One document through the link, or undefined (wrong value, expired, or not this policy's document). */
export async function documentThroughLink(
  deps: LinkDeps,
  accessValue: string,
  documentId: string,
): Promise<StoredDocumentFile | undefined> {
  const policy = await policyOfLink(deps, accessValue);
  if (!policy || documentId.length > 64) return undefined;
  return documentFileOf(deps.db, policy.id, documentId);
}
