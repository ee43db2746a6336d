import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalogue } from '../../src/catalogue/import.js';
import { CatalogueReader } from '../../src/catalogue/reader.js';
import { documentsOf } from '../../src/catalogue/repository.js';
import type { BrandScreening } from '../../src/catalogue/screening.js';
import { servicingRulesOf } from '../../src/catalogue/servicing.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, DIALECT, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;
const edited = mkdtempSync(join(tmpdir(), 'catalogue-edit-'));
beforeAll(async () => {
  database = await createTestDatabase();
  await migrateToLatest(database.db);
  cpSync('catalogue', edited, { recursive: true });
  // A second catalogue that differs in one rate: brandau's rate table version.
  const rates = join(edited, 'brandau/rates.yaml');
  writeFileSync(rates, readFileSync(rates, 'utf8').replace('version: "2026.1"', 'version: "2026.2"'));
});
afterAll(async () => {
  await database.destroy();
  rmSync(edited, { recursive: true, force: true });
});

const count = async (table: 'catalogue_version' | 'catalogue_document' | 'catalogue_pds') =>
  Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('catalogue import', () => {
  it('refuses a broken catalogue and writes nothing', async () => {
    const outcome = await importCatalogue(database.db, join(edited, 'missing'));
    expect(outcome.kind).toBe('invalid');
    expect(await count('catalogue_version')).toBe(0);
  });

  it('is all or nothing: a failure mid-import leaves no version behind', async () => {
    // A trigger that refuses PDS rows, not a renamed table: PostgreSQL suites run files in
    // parallel schemas, and Kysely's migrator introspects every schema's tables, so a rename
    // elsewhere could fail another file's migration mid-introspection.
    if (DIALECT === 'postgres') {
      await sql`create function refuse_pds() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`.execute(database.db);
      await sql`create trigger refuse_pds before insert on catalogue_pds for each row execute function refuse_pds()`.execute(database.db);
    } else {
      await sql`create trigger refuse_pds before insert on catalogue_pds begin select raise(abort, 'injected failure'); end`.execute(database.db);
    }
    try {
      await expect(importCatalogue(database.db, 'catalogue')).rejects.toThrow(/injected failure/);
    } finally {
      await sql`drop trigger refuse_pds${DIALECT === 'postgres' ? sql` on catalogue_pds` : sql``}`.execute(database.db);
      if (DIALECT === 'postgres') await sql`drop function refuse_pds()`.execute(database.db);
    }
    expect(await count('catalogue_version')).toBe(0);
    expect(await count('catalogue_document')).toBe(0);
  });

  it('imports once; the same content again adds no version; new content keeps the old version', async () => {
    const first = await importCatalogue(database.db, 'catalogue', new Date('2026-01-01T00:00:00Z'));
    expect(first.kind).toBe('imported');
    const documents = await count('catalogue_document');
    const pdfs = await count('catalogue_pds');
    expect(pdfs).toBeGreaterThanOrEqual(8);

    const again = await importCatalogue(database.db, 'catalogue');
    expect(again).toMatchObject({ kind: 'unchanged', versionId: first.kind === 'imported' ? first.versionId : -1 });
    expect(await count('catalogue_version')).toBe(1);

    const second = await importCatalogue(database.db, edited, new Date('2026-03-01T00:00:00Z'));
    expect(second.kind).toBe('imported');
    expect(await count('catalogue_version')).toBe(2);
    expect(await count('catalogue_document')).toBe(2 * documents);
    expect(await count('catalogue_pds')).toBe(2 * pdfs);
  });

  it('carries the servicing rules with the version: snapshot brands have them', async () => {
    await importCatalogue(database.db, 'catalogue');
    const snapshot = await new CatalogueReader(database.db, { refreshMs: 0 }).snapshot();
    const nz = snapshot.brands.get('brandnz');
    if (!nz) throw new Error('brandnz missing');
    expect(servicingRulesOf(nz, 'AMT')).toMatchObject({ coolingOffDays: 15, cancellation: { afterDeparture: 'NONE', feeMinor: 2500 }, amendment: { feeMinor: 1000 } });
  });

  it('stores the screening rules with each version: a later import with other bands leaves the earlier version its own', async () => {
    const changed = mkdtempSync(join(tmpdir(), 'catalogue-screening-'));
    try {
      cpSync('catalogue', changed, { recursive: true });
      const file = join(changed, 'brandau/screening.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('{ upTo: 3, outcome: COVERED, medicalPremium: 45.00 }', '{ upTo: 3, outcome: COVERED, medicalPremium: 50.00 }'));
      const before = await importCatalogue(database.db, 'catalogue');
      const after = await importCatalogue(database.db, changed);
      if (before.kind === 'invalid' || after.kind !== 'imported') throw new Error(`unexpected import outcomes ${before.kind} ${after.kind}`);
      const premiumOf = async (versionId: number) => {
        const doc = (await documentsOf(database.db, versionId)).find((d) => d.brandCode === 'brandau' && d.kind === 'screening');
        return (doc?.body as BrandScreening | undefined)?.plans.COMP?.bands[1]?.medicalPremiumMinor;
      };
      expect(await premiumOf(before.versionId)).toBe(4500);
      expect(await premiumOf(after.versionId)).toBe(5000);
      const snapshot = await new CatalogueReader(database.db, { refreshMs: 0 }).snapshot();
      expect(snapshot.versionId).toBe(after.versionId);
      expect(snapshot.brands.get('brandau')?.screening.plans.COMP?.bands[1]?.medicalPremiumMinor).toBe(5000);
      expect(snapshot.screening.conditions.length).toBeGreaterThanOrEqual(25);
      expect(Object.keys(snapshot.brands.get('nomad')?.screening.plans ?? {})).not.toContain('BASIC');
    } finally {
      rmSync(changed, { recursive: true, force: true });
    }
  });
});
