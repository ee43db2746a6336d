import { endOfDayIn } from '../kernel/calendar/zones.js';
import type { PolicyRecord } from '../policies/model.js';
import { findPolicy } from '../policies/repository.js';
import type { BrandCatalogue } from '../catalogue/model.js';
import { documentLanguagesOf, documentNamesOf } from './brand-facts.js';
import { DOCUMENT_LANGUAGES, type DocumentLanguage } from './labels.js';
import { linkBrandOf, policyFactsOf, type LinkBrand, type PolicyPageFacts } from './link-view.js';
import { documentFileOf, policyByAccessValue, type StoredDocumentFile } from './repository.js';
import { documentsOfEveryTransaction, type DocumentDeps } from './service.js';

/** The customer's link (no bearer token): the policy's access value is the key, until a while after cover ends. */

export interface LinkDeps extends DocumentDeps {
  readonly now: Date;
  /** DOCUMENT_LINK_DAYS_AFTER_COVER. */
  readonly linkDaysAfterCover: number;
}

/** What a link value opens: the policy's page, an expired link's (the value was real), or nothing. */
export type LinkOpening =
  | {
      readonly state: 'open';
      readonly brand: LinkBrand;
      readonly language: DocumentLanguage;
      readonly facts: PolicyPageFacts;
    }
  | { readonly state: 'expired'; readonly brand: LinkBrand; readonly language: DocumentLanguage }
  | { readonly state: 'unknown'; readonly language: DocumentLanguage };

const DAY_MS = 86_400_000;
// Access values are 43 characters (32 bytes base64url) or, for policies issued before, a 36-character UUID.
const PLAUSIBLE = /^[A-Za-z0-9_-]{20,100}$/;

/** When a policy's link stops opening: the end of the cover's last day in its zone, plus the configured days. */
export function linkExpiresAt(policy: PolicyRecord, daysAfterCover: number): Date {
  const latest = policy.details.at(-1);
  const coverEnd = latest?.coverEndDate ?? policy.audit.createdAt.slice(0, 10);
  return new Date(Date.parse(endOfDayIn(coverEnd, policy.presentationTimeZoneCode).at) + daysAfterCover * DAY_MS);
}

/** The policy behind a link value, and whether its link still opens at `now`; undefined for any other value. */
async function policyOfLink(
  deps: LinkDeps,
  accessValue: string,
): Promise<{ readonly policy: PolicyRecord; readonly expired: boolean } | undefined> {
  if (!PLAUSIBLE.test(accessValue)) return undefined;
  const owner = await policyByAccessValue(deps.db, accessValue);
  if (!owner) return undefined;
  const policy = await findPolicy(deps.db, owner);
  if (!policy || policy.policyDocumentAccessGuid !== accessValue) return undefined;
  return { policy, expired: linkExpiresAt(policy, deps.linkDaysAfterCover) < deps.now };
}

/** The page's language: the one asked (`?lang=`) when the brand's documents are in it, else the policy's (the brand's default). */
function languageOf(brand: BrandCatalogue | undefined, asked: string | undefined): DocumentLanguage {
  const offered = brand ? documentLanguagesOf(brand) : [...DOCUMENT_LANGUAGES];
  return offered.find((l) => l === asked) ?? offered[0] ?? 'en';
}

/** What a link opens (rendering missing documents); an unknown value learns nothing but its language. */
export async function openDocumentLink(
  deps: LinkDeps,
  accessValue: string,
  askedLanguage?: string,
): Promise<LinkOpening> {
  const found = await policyOfLink(deps, accessValue);
  const unknown = { state: 'unknown', language: languageOf(undefined, askedLanguage) } as const;
  if (!found) return unknown;
  const { policy, expired } = found;
  const snapshot = await deps.catalogue.snapshot();
  const catalogue = snapshot.brands.get(policy.brandCode);
  if (!catalogue) return unknown;
  const language = languageOf(catalogue, askedLanguage);
  const brand = linkBrandOf(catalogue, language);
  if (expired) return { state: 'expired', brand, language };
  const documents = await documentsOfEveryTransaction(deps, policy);
  const latest = policy.details.at(-1);
  const names = latest && documentNamesOf(snapshot, catalogue, policy, latest, policy.destinations.codes, language);
  return { state: 'open', brand, language, facts: policyFactsOf(policy, documents, language, names) };
}

/** One document through the link: its file, `expired` for a real value past its time, or undefined. */
export async function documentThroughLink(
  deps: LinkDeps,
  accessValue: string,
  documentId: string,
): Promise<StoredDocumentFile | 'expired' | undefined> {
  const found = await policyOfLink(deps, accessValue);
  if (!found || documentId.length > 64) return undefined;
  if (found.expired) return 'expired';
  return documentFileOf(deps.db, found.policy.id, documentId);
}
