import type { BrandCode } from '../kernel/brands.js';
import type { Db } from '../db/database.js';
import type { CachedResponse } from '../http/front-cache/cache-headers.js';
import { CatalogueNotLoaded } from './errors.js';
import type { BrandFile, QuoteConfigFile } from './file-schemas.js';
import type { BrandCatalogue, BrandServicing, CompiledCatalogue, Destination, HomeCountry, PlanVersion } from './model.js';
import type { RateTable } from '../pricing/rate-tables.js';
import { documentsOf, latestVersion, pdsFilesOf, versionById, type PdsFile } from './repository.js';
import { setBounded } from '../kernel/cache/bounded-map.js';
import { NO_BRAND_SCREENING, NO_SCREENING, type BrandScreening, type ScreeningCatalogue } from './screening.js';
import { NO_SERVICING } from './servicing.js';
import { NO_REFERRALS, type BrandReferrals } from './referrals.js';

/** One catalogue version, loaded whole into memory: products are read far more than imported. */
export interface CatalogueSnapshot {
  readonly versionId: number;
  readonly importedAt: string;
  readonly brands: ReadonlyMap<string, BrandCatalogue>;
  readonly destinations: ReadonlyMap<string, Destination>;
  readonly homeCountries: ReadonlyMap<string, HomeCountry>;
  /** Medical screening questions, conditions and weights of this version (brand rules: each BrandCatalogue). */
  readonly screening: ScreeningCatalogue;
  /** PDS files by `contractId/documentKey`. */
  readonly pds: ReadonlyMap<string, PdsFile>;
  /** Serialised responses of this version, by a key built from resolved (bounded) inputs. */
  readonly responses: Map<string, CachedResponse>;
}

/** A snapshot of a compiled catalogue (also what tests of the rules build directly). */
export function snapshotOf(catalogue: CompiledCatalogue, versionId: number, importedAt: string, pdsFiles: readonly PdsFile[] = []): CatalogueSnapshot {
  return {
    versionId,
    importedAt,
    brands: new Map(catalogue.brands.map((b) => [b.brandCode, b])),
    destinations: new Map(catalogue.destinations.map((d) => [d.code, d])),
    homeCountries: new Map(catalogue.homeCountries.map((h) => [h.code, h])),
    screening: catalogue.screening,
    pds: new Map(pdsFiles.map((f) => [`${f.insuranceContractId}/${f.documentKey}`, f])),
    responses: new Map(),
  };
}

async function loadSnapshot(db: Db, versionId: number, importedAt: string): Promise<CatalogueSnapshot> {
  const documents = await documentsOf(db, versionId);
  const find = (brandCode: string, kind: string): unknown => documents.find((d) => d.brandCode === brandCode && d.kind === kind)?.body;
  const brands: BrandCatalogue[] = [...new Set(documents.map((d) => d.brandCode))]
    .filter((code) => code !== 'shared')
    .map((brandCode) => ({
      brandCode: brandCode as BrandCode,
      brand: find(brandCode, 'brand') as BrandFile,
      quoteConfig: find(brandCode, 'quoteConfig') as QuoteConfigFile,
      plans: find(brandCode, 'plans') as PlanVersion[],
      rates: find(brandCode, 'rates') as RateTable,
      // A version imported before servicing rules existed allows no change at all.
      servicing: (find(brandCode, 'servicing') ?? NO_SERVICING) as BrandServicing,
      // A version imported before medical screening existed offers it on no plan.
      screening: (find(brandCode, 'screening') ?? NO_BRAND_SCREENING) as BrandScreening,
      // A version imported before referrals existed refers nothing.
      referrals: (find(brandCode, 'referrals') ?? NO_REFERRALS) as BrandReferrals,
    }));
  const catalogue: CompiledCatalogue = {
    brands,
    destinations: (find('shared', 'destinations') ?? []) as Destination[],
    homeCountries: (find('shared', 'countries') ?? []) as HomeCountry[],
    screening: (find('shared', 'screening') ?? NO_SCREENING) as ScreeningCatalogue,
  };
  return snapshotOf(catalogue, versionId, importedAt, await pdsFilesOf(db, versionId));
}

export interface CatalogueReaderOptions {
  /** How often to ask the database whether another process imported a newer version. */
  readonly refreshMs: number;
}

/** Earlier versions kept in memory for quotes priced on them (each is the whole catalogue). */
const EARLIER_VERSIONS_KEPT = 4;

/**
 * Serves the current catalogue version from memory. At most every `refreshMs` it asks the
 * database for the latest version id (one cheap query) and loads the new version when it changed.
 */
export class CatalogueReader {
  private current: CatalogueSnapshot | undefined;
  private checkedAt = -Infinity;
  private pending: Promise<CatalogueSnapshot> | undefined;
  private readonly earlier = new Map<number, CatalogueSnapshot>();

  constructor(
    private readonly db: Db,
    private readonly options: CatalogueReaderOptions,
  ) {}

  /** The current snapshot; throws CatalogueNotLoaded when nothing was ever imported. */
  snapshot(): Promise<CatalogueSnapshot> {
    if (this.current && performance.now() - this.checkedAt < this.options.refreshMs) return Promise.resolve(this.current);
    this.pending ??= this.refresh().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** The current version id when it was confirmed within `refreshMs`; else undefined (call `snapshot`). */
  freshVersionId(): number | undefined {
    return this.current && performance.now() - this.checkedAt < this.options.refreshMs ? this.current.versionId : undefined;
  }

  /**
   * The snapshot of one version (a quote priced on it reads its rules): the current one from
   * memory, an earlier one loaded once and kept (a few at most); undefined for an unknown id.
   */
  async snapshotOfVersion(versionId: number): Promise<CatalogueSnapshot | undefined> {
    const current = await this.snapshot();
    if (current.versionId === versionId) return current;
    const kept = this.earlier.get(versionId);
    if (kept) return kept;
    const version = await versionById(this.db, versionId);
    if (!version) return undefined;
    const loaded = await loadSnapshot(this.db, version.id, version.importedAt);
    setBounded(this.earlier, versionId, loaded, EARLIER_VERSIONS_KEPT);
    return loaded;
  }

  /** Forget the freshness check (an import in this process calls it). */
  invalidate(): void {
    this.checkedAt = -Infinity;
  }

  private async refresh(): Promise<CatalogueSnapshot> {
    const latest = await latestVersion(this.db);
    if (!latest) throw new CatalogueNotLoaded();
    if (this.current?.versionId !== latest.id) this.current = await loadSnapshot(this.db, latest.id, latest.importedAt);
    this.checkedAt = performance.now();
    return this.current;
  }
}

const readers = new WeakMap<Db, CatalogueReader>();

/** One reader per database handle, shared by every area of the app (products, quotes). */
export function catalogueReaderFor(db: Db, options: CatalogueReaderOptions = { refreshMs: 5000 }): CatalogueReader {
  let reader = readers.get(db);
  if (!reader) {
    reader = new CatalogueReader(db, options);
    readers.set(db, reader);
  }
  return reader;
}
