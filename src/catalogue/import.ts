import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type { Db } from '../db/database.js';
import { validateCatalogue } from './compile.js';
import { formatProblem, type CatalogueProblem } from './load.js';
import type { CompiledCatalogue } from './model.js';
import { renderPds } from './pds-pdf.js';
import { insertDocuments, insertPdsFiles, insertVersion, latestVersion, type PdsFile } from './repository.js';

export type ImportOutcome =
  | { readonly kind: 'invalid'; readonly problems: readonly CatalogueProblem[] }
  | { readonly kind: 'unchanged'; readonly versionId: number; readonly contentHash: string }
  | { readonly kind: 'imported'; readonly versionId: number; readonly contentHash: string };

const countriesVersion = (createRequire(import.meta.url)('world-countries/package.json') as { version: string }).version;

/** Bumped when compiling changes meaning, so the same files import again. */
const COMPILE_FORMAT = 2;

/** SHA-256 of every file under `dir` (path and bytes), the compile format and the ISO data version. */
export async function sourceHashOf(dir: string): Promise<string> {
  const hash = createHash('sha256').update(`format ${COMPILE_FORMAT}; world-countries ${countriesVersion}\n`);
  let entries: string[] = [];
  try {
    entries = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    // A missing folder hashes like an empty one; validation then reports the missing files.
  }
  for (const file of entries.sort()) hash.update(`${relative(dir, file)}\0`).update(await readFile(file)).update('\0');
  return hash.digest('hex');
}

/** SHA-256 of the compiled catalogue: same files (and same ISO data) → same hash. */
export function contentHashOf(catalogue: CompiledCatalogue): string {
  return createHash('sha256').update(JSON.stringify(catalogue)).digest('hex');
}

function documentsOf(catalogue: CompiledCatalogue): { brandCode: string; kind: string; body: unknown }[] {
  return [
    { brandCode: 'shared', kind: 'destinations', body: catalogue.destinations },
    { brandCode: 'shared', kind: 'countries', body: catalogue.homeCountries },
    { brandCode: 'shared', kind: 'screening', body: catalogue.screening },
    ...catalogue.brands.flatMap((b) => [
      { brandCode: b.brandCode, kind: 'brand', body: b.brand },
      { brandCode: b.brandCode, kind: 'quoteConfig', body: b.quoteConfig },
      { brandCode: b.brandCode, kind: 'plans', body: b.plans },
      { brandCode: b.brandCode, kind: 'rates', body: b.rates },
      { brandCode: b.brandCode, kind: 'servicing', body: b.servicing },
      { brandCode: b.brandCode, kind: 'screening', body: b.screening },
      { brandCode: b.brandCode, kind: 'referrals', body: b.referrals },
    ]),
  ];
}

async function renderAll(catalogue: CompiledCatalogue, issuedAt: Date): Promise<PdsFile[]> {
  const files: PdsFile[] = [];
  for (const brand of catalogue.brands) {
    for (const contract of brand.brand.insuranceContracts) {
      for (const doc of contract.pdsDocuments) {
        const content = await renderPds(brand, contract.insuranceContractId, doc, issuedAt);
        files.push({ brandCode: brand.brandCode, insuranceContractId: contract.insuranceContractId, documentKey: doc.key, filename: doc.filename, content });
      }
    }
  }
  return files;
}

/**
 * Validates `dir` and stores it as a new catalogue version with its rendered PDS files, all in
 * one transaction. Content equal to the current version's adds nothing; older versions stay.
 */
export async function importCatalogue(db: Db, dir: string, now: Date = new Date()): Promise<ImportOutcome> {
  const sourceHash = await sourceHashOf(dir);
  const current = await latestVersion(db);
  // Fast path: the very files of the current version (parsing and checking take seconds).
  if (current?.sourceHash === sourceHash) return { kind: 'unchanged', versionId: current.id, contentHash: current.contentHash };
  const { catalogue, problems } = await validateCatalogue(dir);
  if (!catalogue) return { kind: 'invalid', problems };
  const contentHash = contentHashOf(catalogue);
  if (current?.contentHash === contentHash) return { kind: 'unchanged', versionId: current.id, contentHash };
  // Rendered before the transaction opens so the write lock is held only for the inserts.
  const pdsFiles = await renderAll(catalogue, now);
  const summary = {
    brands: catalogue.brands.length,
    planVersions: catalogue.brands.reduce((n, b) => n + b.plans.length, 0),
    destinations: catalogue.destinations.length,
    pdsFiles: pdsFiles.length,
  };
  const versionId = await db.transaction().execute(async (tx) => {
    const id = await insertVersion(tx, { contentHash, sourceHash }, now.toISOString(), summary);
    await insertDocuments(tx, id, documentsOf(catalogue));
    await insertPdsFiles(tx, id, pdsFiles);
    return id;
  });
  return { kind: 'imported', versionId, contentHash };
}

/** Start-up import of the repository's catalogue (demo data): refuses to start on a broken catalogue. */
export async function importDemoCatalogue(db: Db, dir: string): Promise<void> {
  const outcome = await importCatalogue(db, dir);
  if (outcome.kind === 'invalid') {
    throw new Error(`Catalogue '${dir}' is invalid:\n${outcome.problems.slice(0, 20).map(formatProblem).join('\n')}`);
  }
}
