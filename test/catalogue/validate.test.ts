import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import worldCountries from 'world-countries';
import { afterAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../src/catalogue/compile.js';
import { formatProblem } from '../../src/catalogue/load.js';
import { servicingRulesOf } from '../../src/catalogue/servicing.js';
import { catalogueCopies } from '../helpers/catalogue-copy.js';

/** Copies of the repository's catalogue with one file edited. */
const { brokenCopy, removeAll } = catalogueCopies();
afterAll(removeAll);

describe('catalogue validate', () => {
  it('accepts the repository catalogue: four brands, every ISO country a destination', async () => {
    const { catalogue, problems } = await validateCatalogue('catalogue');
    expect(problems.map(formatProblem)).toEqual([]);
    expect(catalogue?.brands.map((b) => b.brandCode)).toEqual(['brandau', 'brandnz', 'directau', 'nomad']);
    const codes = new Set(catalogue?.destinations.map((d) => d.code));
    const iso = (worldCountries as unknown as { cca3: string }[]).map((c) => c.cca3);
    expect(iso.length).toBeGreaterThan(240);
    for (const code of iso) expect(codes.has(code), code).toBe(true);
    for (const code of ['XWW', 'XWA', 'XAS', 'XPA', 'XEU', 'XSC']) expect(codes.has(code), code).toBe(true);
    const nomad = catalogue?.brands.find((b) => b.brandCode === 'nomad');
    expect(nomad?.brand.homeCountryCodes.length).toBeGreaterThanOrEqual(10);
    expect(catalogue?.destinations.find((d) => d.code === 'DEU')?.names).toMatchObject({ en: 'Germany', es: 'Alemania' });
  });

  it('requires the insurer and its tax number that partner tax invoices name (statements)', async () => {
    const dir = brokenCopy('brandau/brand.yaml', (t) =>
      t.replace('    - { type: INSURERTAXNUMBER, content: "ABN 11 222 333 444" }\n', ''),
    );
    const { problems } = await validateCatalogue(dir);
    expect(problems.map(formatProblem)).toEqual([
      'brandau/brand.yaml:12 at contentItems.en: content item INSURERTAXNUMBER (the insurer on partner tax invoices) is required in the default language',
    ]);
  });

  it('points at the file, line, path and reason of schema violations', async () => {
    const dir = brokenCopy('nomad/brand.yaml', (t) => t.replace('expirySeconds: 1800', 'expirySeconds: soon\nbogus: 1'));
    const { catalogue, problems } = await validateCatalogue(dir);
    expect(catalogue).toBeUndefined();
    expect(problems).toEqual(
      expect.arrayContaining([
        { file: 'nomad/brand.yaml', path: 'expirySeconds', line: 6, reason: 'must be integer' },
        { file: 'nomad/brand.yaml', path: 'bogus', line: 7, reason: "unknown field 'bogus'" },
      ]),
    );
  });

  it('reports YAML syntax errors with their line', async () => {
    const dir = brokenCopy('brandnz/plans.yaml', (t) => t.replace('  - code: ESSE', '  - code: [ESSE'));
    const { problems } = await validateCatalogue(dir);
    expect(problems[0]).toMatchObject({ file: 'brandnz/plans.yaml', reason: expect.stringMatching(/^YAML: /) });
    expect(problems[0]?.line).toBeGreaterThan(10);
  });

  it('cross-checks references, ids and rate monotonicity', async () => {
    const dir = brokenCopy('directau/plans.yaml', (t) => t.replace('planId: 300102', 'planId: 100101').replace('termConditionIds: [3101, 3102, 3104] }', 'termConditionIds: [3101, 9999] }'));
    writeFileSync(join(dir, 'brandnz/rates.yaml'), readFileSync(join(dir, 'brandnz/rates.yaml'), 'utf8').replace(/(durationBandId: 3, ageBandId: 6, salePrice: )\d+/, '$1100'));
    writeFileSync(join(dir, 'shared/destinations.yaml'), readFileSync(join(dir, 'shared/destinations.yaml'), 'utf8').replace('code: XSC', 'code: SCH'));
    const { problems } = await validateCatalogue(dir);
    const text = problems.map(formatProblem);
    expect(text).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^directau\/plans\.yaml:14 at plans\[0\]\.versions\[1\]\.planId: planId 100101 is already used by brandau\/COMP$/),
        expect.stringMatching(/^directau\/plans\.yaml:\d+ at plans\[2\]\.versions\[0\]\.termConditionIds\[1\]: term 9999 is not in brand\.yaml/),
        expect.stringMatching(/^brandnz\/rates\.yaml:\d+ at plans\[0\]\.basePrices\[17\]: price falls as duration rises \(region PACIFIC, band 3, age band 6\)$/),
        expect.stringMatching(/^shared\/destinations\.yaml:\d+ at countryLists\[0\]\.code: 'SCH' must be in the user-assigned X\.\. range$/),
      ]),
    );
  });

  it('refuses a rate table whose rating regions differ from the destinations', async () => {
    const dir = brokenCopy('brandau/rates.yaml', (t) => t.replace('{ code: ASIA, rank: 2 }', '{ code: ASIA_PACIFIC, rank: 2 }'));
    const { problems } = await validateCatalogue(dir);
    expect(problems.map(formatProblem)).toEqual(
      expect.arrayContaining([
        "brandau/rates.yaml:6 at ratingRegions: rating region 'ASIA' (used by destinations) has no entry",
        expect.stringContaining("at ratingRegions[1].code: 'ASIA_PACIFIC' is not a rating region of shared/destinations.yaml"),
      ]),
    );
  });

  it('compiles servicing rules: plan overrides over brand defaults, fees in minor units', async () => {
    const { catalogue } = await validateCatalogue('catalogue');
    const brand = (code: string) => catalogue?.brands.find((b) => b.brandCode === code);
    const nz = brand('brandnz');
    if (!nz) throw new Error('brandnz missing');
    expect(servicingRulesOf(nz, 'COMP')).toEqual({
      coolingOffDays: 15,
      cancellation: { beforeDeparture: 'PRO_RATA', afterDeparture: 'PRO_RATA', feeMinor: 2500 },
      amendment: {
        feeMinor: 1000,
        beforeDeparture: { dates: true, destinations: true, travellers: true, options: true },
        afterDeparture: { extendReturnDate: true },
      },
    });
    expect(servicingRulesOf(nz, 'AMT').cancellation).toEqual({ beforeDeparture: 'PRO_RATA', afterDeparture: 'NONE', feeMinor: 2500 });
    const au = brand('brandau');
    if (!au) throw new Error('brandau missing');
    expect(servicingRulesOf(au, 'BASIC').amendment.beforeDeparture).toEqual({ dates: true, destinations: true, travellers: true, options: false });
    expect(servicingRulesOf(au, 'UNKNOWN')).toEqual(au.servicing.defaults);
    expect(catalogue?.brands.map((b) => servicingRulesOf(b, 'COMP').coolingOffDays)).toEqual([21, 15, 21, 14]);
  });

  it('refuses a bad servicing file with file, line, path and reason', async () => {
    const dir = brokenCopy('brandnz/servicing.yaml', (t) =>
      t
        .replace('coolingOffDays: 15', 'coolingOffDays: 61')
        .replace('fee: 10.00', 'fee: -1')
        .replace('{ afterDeparture: NONE }', '{ afterDeparture: NEVER }')
        .replace('  AMT:', '  AMT:\n    coolingOffDays: 2.5'),
    );
    const { catalogue, problems } = await validateCatalogue(dir);
    expect(catalogue).toBeUndefined();
    expect(problems.map(formatProblem)).toEqual([
      'brandnz/servicing.yaml:4 at defaults.coolingOffDays: must be <= 60',
      'brandnz/servicing.yaml:7 at defaults.amendment.fee: must be >= 0',
      'brandnz/servicing.yaml:12 at plans.AMT.coolingOffDays: must be integer',
      'brandnz/servicing.yaml:13 at plans.AMT.cancellation.afterDeparture: must be equal to one of the allowed values',
    ]);
  });

  it('refuses servicing overrides of unknown plan codes and fees finer than the currency', async () => {
    const dir = brokenCopy('brandau/servicing.yaml', (t) => t.replace('fee: 25.00', 'fee: 25.001').replace('  AMT:', '  GOLD:\n    coolingOffDays: 3\n  AMT:'));
    const { problems } = await validateCatalogue(dir);
    expect(problems.map(formatProblem)).toEqual([
      'brandau/servicing.yaml:5 at defaults.cancellation.fee: fee 25.001 has more than 2 decimals (AUD)',
      "brandau/servicing.yaml:15 at plans.GOLD: plan code 'GOLD' is not in plans.yaml",
    ]);
  });

  it('requires every name a traveller reads in each language the brand offers, with file and line', async () => {
    const dir = brokenCopy('nomad/plans.yaml', (t) => t.replace('    translations: { es: { name: Esencial } }\n', ''));
    const brandFile = join(dir, 'nomad/brand.yaml');
    writeFileSync(
      brandFile,
      readFileSync(brandFile, 'utf8')
        .replace(', es: Deportes de nieve', '')
        .replace('  - { code: CANCELLATION, names: { en: Cancellation cover, es: Cobertura de cancelación } }\n', '')
        .replace('  - { code: CRUISE,', '  - { code: CRUIZE, names: { en: Cruize, es: Crucero } }\n  - { code: CRUISE,')
        .replace('    - { type: CLAIMSURL, content: "https://claims.nomad.example/es" }\n', ''),
    );
    const destinationsFile = join(dir, 'shared/destinations.yaml');
    writeFileSync(destinationsFile, readFileSync(destinationsFile, 'utf8').replace('names: { en: Asia, es: Asia }', 'names: { en: Asia }'));
    const { catalogue, problems } = await validateCatalogue(dir);
    expect(catalogue).toBeUndefined();
    // The CLAIMSURL line removed above moves the later lines of brand.yaml up by one.
    expect(problems.map(formatProblem).sort()).toEqual([
      "nomad/brand.yaml:26 at contentItems.es: content item CLAIMSURL is missing in 'es'",
      "nomad/brand.yaml:40 at optionTypes[0].code: option type CRUIZE is not sold in rates.yaml",
      "nomad/brand.yaml:42 at optionTypes[2].names: option type SNOWSPORTS has no name in 'es', a language of the brand",
      "nomad/plans.yaml:16 at plans[1].translations: plan ESSE has no name in 'es' (translations.es.name), a language of the brand",
      'nomad/rates.yaml:121 at plans[0].cancellation: option type CANCELLATION has no names in brand.yaml optionTypes',
      "shared/destinations.yaml:32 at regions[2].names: XAS has no name in 'es' (offered by nomad)",
    ].sort());
  });

  it('refuses a language the policy documents are not printed in', async () => {
    const dir = brokenCopy('brandnz/brand.yaml', (t) => t.replace('languages: { en: English }', 'languages: { en: English, fr: Français }'));
    const { problems } = await validateCatalogue(dir);
    expect(problems.map(formatProblem)).toEqual(
      expect.arrayContaining([
        "brandnz/brand.yaml:5 at languages.fr: policy documents have no wording in 'fr' (they are printed in en, es)",
        expect.stringMatching(/^brandnz\/plans\.yaml:\d+ at plans\[0\]\.translations: plan COMP has no name in 'fr'/),
        expect.stringMatching(/^brandnz\/brand\.yaml:\d+ at optionTypes\[0\]\.names: option type CRUISE has no name in 'fr'/),
        "brandnz/brand.yaml:11 at contentItems: no content items in 'fr', a language of the brand",
      ]),
    );
  });

  it('refuses a brand without servicing.yaml', async () => {
    const dir = brokenCopy('nomad/servicing.yaml', () => '');
    rmSync(join(dir, 'nomad/servicing.yaml'));
    const { problems } = await validateCatalogue(dir);
    expect(problems.map(formatProblem)).toEqual(['nomad/servicing.yaml: file is missing']);
  });
});
