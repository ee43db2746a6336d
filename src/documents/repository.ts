import { sql } from 'kysely';
import type { BrandCode } from '../kernel/brands.js';
import type { Executor } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import type { DocumentKind } from './certificate.js';
import type { PolicyDocumentRow } from './tables.js';

/** A kept document, without its bytes. */
export interface StoredDocument {
  /** Random UUID (policy_document.public_id): the `documentId` of the contract. */
  readonly documentId: string;
  readonly policyHeaderId: number;
  readonly sequenceNumber: number;
  readonly kind: DocumentKind;
  readonly language: string;
  readonly fileName: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly createdAt: string;
}

/** A kept document with its bytes. */
export interface StoredDocumentFile extends StoredDocument {
  readonly content: Uint8Array;
}

export interface NewDocument {
  readonly documentId: string;
  readonly policyHeaderId: number;
  readonly sequenceNumber: number;
  readonly kind: DocumentKind;
  readonly language: string;
  readonly fileName: string;
  readonly content: Uint8Array;
  readonly sha256: string;
  readonly createdAt: string;
}

const META = [
  'public_id',
  'policy_header_id',
  'sequence_number',
  'kind',
  'language',
  'file_name',
  'sha256',
  'created_at',
] as const;
type MetaRow = Pick<PolicyDocumentRow, (typeof META)[number]> & { size_bytes: number | string };

function toStored(row: MetaRow): StoredDocument {
  return {
    documentId: row.public_id,
    policyHeaderId: row.policy_header_id,
    sequenceNumber: row.sequence_number,
    kind: row.kind as DocumentKind,
    language: row.language,
    fileName: row.file_name,
    sha256: row.sha256,
    sizeBytes: Number(row.size_bytes),
    createdAt: row.created_at,
  };
}

/** Byte length of the content column, in each engine's own words. */
function sizeOf(db: Executor) {
  return dialectOf(db) === 'postgres'
    ? sql<number>`octet_length(content)`.as('size_bytes')
    : sql<number>`length(content)`.as('size_bytes');
}

/** Keeps a rendered document unless that transaction's document of this kind and language exists (first one wins). */
export async function insertDocument(db: Executor, doc: NewDocument): Promise<void> {
  await db
    .insertInto('policy_document')
    .values({
      public_id: doc.documentId,
      policy_header_id: doc.policyHeaderId,
      sequence_number: doc.sequenceNumber,
      kind: doc.kind,
      language: doc.language,
      file_name: doc.fileName,
      content: Buffer.from(doc.content),
      sha256: doc.sha256,
      created_at: doc.createdAt,
    })
    .onConflict((oc) => oc.columns(['policy_header_id', 'sequence_number', 'kind', 'language']).doNothing())
    .execute();
}

/** Every kept document of a policy: by transaction, then kind, then language. */
export async function documentsOf(db: Executor, policyHeaderId: number): Promise<StoredDocument[]> {
  const rows = await db
    .selectFrom('policy_document')
    .select([...META, sizeOf(db)])
    .where('policy_header_id', '=', policyHeaderId)
    .orderBy('sequence_number')
    .orderBy('kind')
    .orderBy('language')
    .execute();
  return rows.map(toStored);
}

/** One document of a policy with its bytes; undefined unless `documentId` belongs to that policy. */
export async function documentFileOf(
  db: Executor,
  policyHeaderId: number,
  documentId: string,
): Promise<StoredDocumentFile | undefined> {
  const row = await db
    .selectFrom('policy_document')
    .select([...META, 'content', sizeOf(db)])
    .where('policy_header_id', '=', policyHeaderId)
    .where('public_id', '=', documentId)
    .executeTakeFirst();
  return row && { ...toStored(row), content: new Uint8Array(row.content) };
}

/** Who owns a policy, by its number; the documents' worker finds the policy with it (findPolicy checks owners). */
export async function policyOwnerOf(
  db: Executor,
  policyNumber: string,
): Promise<{ partnerId: number; brandCode: BrandCode } | undefined> {
  const row = await db
    .selectFrom('policy_header')
    .select(['partner_id', 'brand_code'])
    .where('policy_number', '=', policyNumber)
    .executeTakeFirst();
  return row && { partnerId: row.partner_id, brandCode: row.brand_code as BrandCode };
}

/** The policy number behind a customer's document link; undefined when none has that value. */
export async function policyByAccessValue(
  db: Executor,
  accessValue: string,
): Promise<{ policyNumber: string; partnerId: number; brandCode: BrandCode } | undefined> {
  const row = await db
    .selectFrom('policy_header')
    .select(['policy_number', 'partner_id', 'brand_code'])
    .where('policy_document_access_guid', '=', accessValue)
    .executeTakeFirst();
  return (
    row && {
      policyNumber: row.policy_number,
      partnerId: row.partner_id,
      brandCode: row.brand_code as BrandCode,
    }
  );
}
