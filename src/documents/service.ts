import { createHash, randomUUID } from 'node:crypto';
import type { CatalogueSnapshot } from '../catalogue/reader.js';
import type { Executor } from '../db/database.js';
import { PolicyNotFound } from '../policies/errors.js';
import type { PolicyRecord } from '../policies/model.js';
import { findPolicy } from '../policies/repository.js';
import type { PolicyLookup } from '../policies/repository-read.js';
import { documentLanguagesOf } from './brand-facts.js';
import { documentFileName, documentKindOf, renderPolicyDocument, type PolicyScreenings } from './certificate.js';
import { documentFactsFor } from './document-facts.js';
import { DocumentNotFound } from './errors.js';
import {
  documentFileOf,
  documentsOf,
  insertDocument,
  policyOwnerOf,
  type StoredDocument,
  type StoredDocumentFile,
} from './repository.js';

export type { StoredDocument, StoredDocumentFile } from './repository.js';

/** What rendering and keeping documents needs: the database, the catalogue, where the customer's link points, the screenings. */
export interface DocumentDeps {
  readonly db: Executor;
  readonly catalogue: { snapshot(): Promise<CatalogueSnapshot> };
  /** PUBLIC_BASE_URL + BASE_PATH: the customer's link is `<base>/documents/v1/<policyDocumentAccessGuid>`. */
  readonly linkBaseUrl: string;
  /** The screenings the policy's travellers carry, for a certificate's medical conditions. */
  readonly screenings: PolicyScreenings;
}

/**
 * The documents of one transaction of a policy, rendered and kept when missing: one per brand
 * language (CERTIFICATE, or CANCELLATION_NOTICE for a cancellation). Two callers racing keep one
 * (insert … on conflict do nothing, then read back): every later call answers the same bytes.
 * `policy` is a policy number (the outbox worker's case; no owner check) or an already-read policy.
 */
export async function ensureTransactionDocuments(
  deps: DocumentDeps,
  policy: string | PolicyRecord,
  sequenceNumber: number,
): Promise<StoredDocument[]> {
  const record = typeof policy === 'string' ? await policyByNumber(deps.db, policy) : policy;
  await renderMissing(deps, record, [sequenceNumber]);
  return (await documentsOf(deps.db, record.id)).filter((d) => d.sequenceNumber === sequenceNumber);
}

/** Every transaction's documents of a policy the caller may see (rendering any missing), oldest first. */
export async function listPolicyDocuments(deps: DocumentDeps, lookup: PolicyLookup): Promise<StoredDocument[]> {
  const policy = await findPolicy(deps.db, lookup);
  if (!policy) throw new PolicyNotFound(lookup.policyNumber);
  return documentsOfEveryTransaction(deps, policy);
}

/** One kept document of a policy the caller may see; 404 DOCUMENT_NOT_FOUND for another policy's id. */
export async function getPolicyDocument(
  deps: DocumentDeps,
  lookup: PolicyLookup,
  documentId: string,
): Promise<StoredDocumentFile> {
  const policy = await findPolicy(deps.db, lookup);
  if (!policy) throw new PolicyNotFound(lookup.policyNumber);
  const file = await documentFileOf(deps.db, policy.id, documentId);
  if (!file) throw new DocumentNotFound(documentId);
  return file;
}

/** Every transaction's documents of `policy`, rendering the missing ones. */
export async function documentsOfEveryTransaction(deps: DocumentDeps, policy: PolicyRecord): Promise<StoredDocument[]> {
  const kept = await documentsOf(deps.db, policy.id);
  const have = new Set(kept.map((d) => d.sequenceNumber));
  const missing = policy.details.map((d) => d.sequenceNumber).filter((s) => !have.has(s));
  if (missing.length === 0) return kept;
  await renderMissing(deps, policy, missing);
  return documentsOf(deps.db, policy.id);
}

async function policyByNumber(db: Executor, policyNumber: string): Promise<PolicyRecord> {
  const owner = await policyOwnerOf(db, policyNumber);
  const policy = owner && (await findPolicy(db, { policyNumber, ...owner }));
  if (!policy) throw new PolicyNotFound(policyNumber);
  return policy;
}

async function renderMissing(deps: DocumentDeps, policy: PolicyRecord, sequenceNumbers: number[]): Promise<void> {
  const kept = await documentsOf(deps.db, policy.id);
  const keyOf = (sequence: number, kind: string, language: string) => `${sequence}/${kind}/${language}`;
  const have = new Set(kept.map((d) => keyOf(d.sequenceNumber, d.kind, d.language)));
  const snapshot = await deps.catalogue.snapshot();
  const brand = snapshot.brands.get(policy.brandCode);
  if (!brand) throw new Error(`brand ${policy.brandCode} is not in the catalogue`);
  const factsOf = await documentFactsFor(deps.db, snapshot, policy, deps.linkBaseUrl, deps.screenings);
  for (const sequenceNumber of sequenceNumbers) {
    const detail = policy.details.find((d) => d.sequenceNumber === sequenceNumber);
    if (!detail) throw new PolicyNotFound(policy.policyNumber);
    const kind = documentKindOf(detail);
    for (const language of documentLanguagesOf(brand)) {
      if (have.has(keyOf(sequenceNumber, kind, language))) continue;
      const content = await renderPolicyDocument(factsOf(detail, language));
      await insertDocument(deps.db, {
        documentId: randomUUID(),
        policyHeaderId: policy.id,
        sequenceNumber,
        kind,
        language,
        fileName: documentFileName(policy.policyNumber, sequenceNumber, kind, language),
        content,
        sha256: createHash('sha256').update(content).digest('hex'),
        // The transaction's instant: the document's date is the cover's, not the render's.
        createdAt: detail.audit.createdAt,
      });
    }
  }
}
