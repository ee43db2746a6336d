import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * Catalogue storage. Every import that changes content adds one `catalogue_version`; its
 * documents and PDFs hang off it and are never updated, so older versions stay readable.
 */
export interface CatalogueTables {
  catalogue_version: CatalogueVersionTable;
  catalogue_document: CatalogueDocumentTable;
  catalogue_pds: CataloguePdsTable;
}

export interface CatalogueVersionTable {
  id: Generated<number>;
  /** SHA-256 of the compiled catalogue; an import of the same content adds no version. */
  content_hash: string;
  /** SHA-256 of the files read (and the ISO data version): lets an unchanged start skip parsing. */
  source_hash: string;
  imported_at: string;
  /** JSON: counts of what the version holds, for operators. */
  summary: string;
}

export interface CatalogueDocumentTable {
  id: Generated<number>;
  version_id: number;
  /** Brand the document belongs to; `shared` for destinations and home countries. */
  brand_code: string;
  /** `brand`, `quoteConfig`, `plans`, `rates`, `destinations`, `countries`. */
  kind: string;
  /** JSON of the compiled document. */
  body: string;
}

export interface CataloguePdsTable {
  id: Generated<number>;
  version_id: number;
  brand_code: string;
  insurance_contract_id: number;
  /** The PDS document key inside its contract (`pdsDocuments[].key`). */
  document_key: string;
  filename: string;
  /** The PDF bytes. */
  content: Buffer;
}

export type CatalogueVersionRow = Selectable<CatalogueVersionTable>;
export type NewCatalogueVersionRow = Insertable<CatalogueVersionTable>;
export type CatalogueDocumentRow = Selectable<CatalogueDocumentTable>;
export type CataloguePdsRow = Selectable<CataloguePdsTable>;

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends CatalogueTables {}
}
