import type { Executor, Tx } from '../db/database.js';

/** Every catalogue query. Documents are JSON text; PDFs are bytes. */

export interface StoredVersion {
  readonly id: number;
  readonly contentHash: string;
  readonly sourceHash: string;
  readonly importedAt: string;
}

const VERSION_COLUMNS = ['id', 'content_hash', 'source_hash', 'imported_at'] as const;
function toVersion(row: { id: number; content_hash: string; source_hash: string; imported_at: string }): StoredVersion {
  return { id: row.id, contentHash: row.content_hash, sourceHash: row.source_hash, importedAt: row.imported_at };
}

export async function latestVersion(db: Executor): Promise<StoredVersion | undefined> {
  const row = await db.selectFrom('catalogue_version').select(VERSION_COLUMNS).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row && toVersion(row);
}

export async function versionById(db: Executor, id: number): Promise<StoredVersion | undefined> {
  const row = await db.selectFrom('catalogue_version').select(VERSION_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && toVersion(row);
}

export async function insertVersion(tx: Tx, hashes: { contentHash: string; sourceHash: string }, importedAt: string, summary: object): Promise<number> {
  const row = await tx
    .insertInto('catalogue_version')
    .values({ content_hash: hashes.contentHash, source_hash: hashes.sourceHash, imported_at: importedAt, summary: JSON.stringify(summary) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertDocuments(tx: Tx, versionId: number, documents: readonly { brandCode: string; kind: string; body: unknown }[]): Promise<void> {
  for (const d of documents) {
    await tx.insertInto('catalogue_document').values({ version_id: versionId, brand_code: d.brandCode, kind: d.kind, body: JSON.stringify(d.body) }).execute();
  }
}

export interface PdsFile {
  readonly brandCode: string;
  readonly insuranceContractId: number;
  readonly documentKey: string;
  readonly filename: string;
  readonly content: Buffer;
}

export async function insertPdsFiles(tx: Tx, versionId: number, files: readonly PdsFile[]): Promise<void> {
  for (const f of files) {
    await tx
      .insertInto('catalogue_pds')
      .values({ version_id: versionId, brand_code: f.brandCode, insurance_contract_id: f.insuranceContractId, document_key: f.documentKey, filename: f.filename, content: f.content })
      .execute();
  }
}

export async function documentsOf(db: Executor, versionId: number): Promise<{ brandCode: string; kind: string; body: unknown }[]> {
  const rows = await db.selectFrom('catalogue_document').select(['brand_code', 'kind', 'body']).where('version_id', '=', versionId).execute();
  return rows.map((r) => ({ brandCode: r.brand_code, kind: r.kind, body: JSON.parse(r.body) as unknown }));
}

export async function pdsFilesOf(db: Executor, versionId: number): Promise<PdsFile[]> {
  const rows = await db
    .selectFrom('catalogue_pds')
    .select(['brand_code', 'insurance_contract_id', 'document_key', 'filename', 'content'])
    .where('version_id', '=', versionId)
    .execute();
  return rows.map((r) => ({ brandCode: r.brand_code, insuranceContractId: r.insurance_contract_id, documentKey: r.document_key, filename: r.filename, content: Buffer.from(r.content) }));
}

export async function brandCodeById(db: Executor, brandId: number): Promise<string | undefined> {
  const row = await db.selectFrom('brand').select('code').where('id', '=', brandId).executeTakeFirst();
  return row?.code;
}
