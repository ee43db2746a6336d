import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { TSchema } from 'typebox';
import Value from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { BRAND_CODES } from '../../src/kernel/brands.js';
import { importCatalogue } from '../../src/catalogue/import.js';
import { BrandContentResponse, FeaturesResponse, PdsSummaryResponse, PlanResponse, QuoteConfigResponse } from '../../src/catalogue/schemas.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';

// The demo catalogue is imported at start; "now" is 2026-05-15, inside the first plan versions.
const testApp = useTestApp({ env: { DEMO_DATA: 'true', CATALOGUE_REFRESH_SECONDS: '0' }, clock: () => new Date('2026-05-15T03:00:00Z') });

/** Every key of `value` is a field of `schema` (recursively): the spec's exact names, nothing else. */
function expectSpecFields(value: unknown, schema: TSchema, path = '$'): void {
  const s = schema as { type?: string; properties?: Record<string, TSchema>; items?: TSchema };
  if (Array.isArray(value) && s.items) value.forEach((item, i) => expectSpecFields(item, s.items!, `${path}[${i}]`));
  else if (value && typeof value === 'object' && s.properties) {
    for (const [key, child] of Object.entries(value)) {
      expect(s.properties, `${path}.${key}`).toHaveProperty(key);
      expectSpecFields(child, s.properties[key]!, `${path}.${key}`);
    }
  }
  expect(Value.Check(schema, value), path).toBe(true);
}

async function get(brand: (typeof BRAND_CODES)[number], url: string, headers: Record<string, string> = {}) {
  const t = testApp();
  return t.app.inject({ method: 'GET', url, headers: { ...(await bearerFor(t, brand)), ...headers } });
}

const CONTRACTS = { brandau: 1001, brandnz: 2001, directau: 3001, nomad: 4001 } as const;

describe.each(BRAND_CODES)('products of %s', (brand) => {
  it('answers every endpoint with the spec fields', async () => {
    for (const quoteType of ['SINGLETRIP', 'MULTITRIP']) {
      const config = await get(brand, `/products/v1/${brand}/baseQuoteConfig?quoteType=${quoteType}`);
      expect(config.statusCode).toBe(200);
      expectSpecFields(config.json(), QuoteConfigResponse);
      expect(config.json().travelRestrictionConfigs.length).toBeGreaterThanOrEqual(1);
    }
    for (const planCode of ['COMP', 'ESSE', 'BASIC', 'AMT']) {
      const plan = await get(brand, `/products/v1/${brand}/plans?planCode=${planCode}`);
      expect(plan.statusCode).toBe(200);
      expectSpecFields(plan.json(), PlanResponse);
      expect(plan.json()).toMatchObject({ code: planCode, brandCode: brand, quoteType: planCode === 'AMT' ? 'MULTITRIP' : 'SINGLETRIP', effectiveFromDate: '2025-07-01' });
    }
    const content = await get(brand, `/products/v1/${brand}/brands`);
    expectSpecFields(content.json(), BrandContentResponse);
    expect(content.json().code).toBe(brand);
    const features = await get(brand, `/products/v1/${brand}/features/${CONTRACTS[brand]}`);
    expectSpecFields(features.json(), FeaturesResponse);
    expect(features.json().features.length).toBeGreaterThan(0);
    const summary = await get(brand, `/products/v2/${brand}/insuranceContract/${CONTRACTS[brand]}/pdsSummary`);
    expectSpecFields(summary.json(), PdsSummaryResponse);
    expect(summary.json()).toMatchObject({ contentTypeCode: 'PDF', filename: expect.stringMatching(/\.pdf$/) });
  });

  it('serves a PDS that a PDF library opens', async () => {
    const pds = await get(brand, `/products/v2/${brand}/insuranceContract/${CONTRACTS[brand]}/pds`);
    expect(pds.statusCode).toBe(200);
    expect(pds.headers['content-type']).toBe('application/pdf');
    const pdf = await PDFDocument.load(pds.rawPayload);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(pdf.getTitle()).toMatch(/2025/);
  });
});

describe('plan versions by date', () => {
  it('returns the version in force before and after the boundary', async () => {
    const before = (await get('brandau', '/products/v1/brandau/plans?planCode=COMP&effectiveAt=2026-06-30')).json();
    const after = (await get('brandau', '/products/v1/brandau/plans?planCode=COMP&effectiveAt=2026-07-01')).json();
    expect(before).toMatchObject({ planId: 100101, insuranceContractId: 1001, effectiveToDate: '2026-06-30' });
    expect(after).toMatchObject({ planId: 100102, insuranceContractId: 1002, code: 'COMP' });
    expect(after.effectiveToDate).toBeUndefined();
    // A date-time is read in the brand's time zone: 15:00 UTC on 30 June is 1 July in Sydney.
    expect((await get('brandau', '/products/v1/brandau/plans?planCode=COMP&effectiveAt=2026-06-30T15:00:00Z')).json().planId).toBe(100102);
  });

  it('translates, filters partner terms and points at the PDS', async () => {
    const plain = (await get('nomad', '/products/v1/nomad/plans?planCode=COMP&lang=es')).json();
    expect(plain.name).toBe('Integral');
    expect(plain.availableTranslations).toEqual({ en: 'English', es: 'Español' });
    expect(plain.purchaseTermsAndConditions[0].customerDeclarationText).toMatch(/^He leído/);
    // The caller (partner PARTNERA) is in no partner group: no reserved terms (test/catalogue/partner-terms.test.ts has the rest).
    expect(plain.purchaseTermsAndConditions.some((t: { partnerGroupIds?: number[] }) => t.partnerGroupIds)).toBe(false);
    expect(plain.pdsUrl).toBe('v2/nomad/insuranceContract/4001/pds?planId=400111&lang=es');
    expect((await get('nomad', `/products/${String(plain.pdsUrl)}`)).headers['content-type']).toBe('application/pdf');
  });
});

describe('errors', () => {
  it.each([
    ['/products/v1/brandau/plans?planCode=NOPE', 404, 'UNKNOWN_PLAN_CODE'],
    ['/products/v1/brandau/plans?planCode=COMP&effectiveAt=2024-01-01', 404, 'PLAN_NOT_SOLD'],
    ['/products/v1/brandau/plans?planCode=COMP&effectiveAt=2026-02-30', 400, 'INVALID_DATE'],
    ['/products/v1/brandau/plans?planCode=COMP&effectiveAt=tomorrow', 400, 'INVALID_DATE'],
    ['/products/v1/brandau/baseQuoteConfig?quoteType=WEEKLY', 400, 'INVALID_VALUE'],
    ['/products/v1/brandau/brands/99', 404, 'UNKNOWN_BRAND_ID'],
    ['/products/v1/brandau/features/4001', 404, 'UNKNOWN_INSURANCE_CONTRACT'],
    ['/products/v2/brandau/insuranceContract/999/pdsSummary', 404, 'UNKNOWN_INSURANCE_CONTRACT'],
    ['/products/v2/brandau/insuranceContract/1001/pds?planId=100102', 404, 'UNKNOWN_PLAN_ID'],
    ['/products/v1/acme/brands', 404, 'UNKNOWN_BRAND'],
  ])('%s → %i %s', async (url, status, code) => {
    const response = await get('brandau', url);
    expect(response.statusCode).toBe(status);
    expect(response.json().validation.errors[0].code).toBe(code);
  });
});

describe('selection and caching', () => {
  it('selects brand content by id (brandCode ignored) and falls back per item', async () => {
    const nomad = (await get('brandau', '/products/v1/brandau/brands/4?lang=es')).json();
    expect(nomad.code).toBe('nomad');
    expect(nomad.contentItems.find((i: { type: string }) => i.type === 'TNCHEADER').content).toMatch(/^Antes de comprar/);
    const unknownLang = (await get('brandau', '/products/v1/brandau/brands?lang=fr')).json();
    expect(unknownLang.contentItems[0].content).toMatch(/Brand Australia/);
  });

  it('picks the most specific PDS document', async () => {
    const summary = async (query: string): Promise<{ filename: string }> => (await get('nomad', `/products/v2/nomad/insuranceContract/4002/pdsSummary${query}`)).json();
    expect((await summary('?countryCode=CAN&provinceCode=QC')).filename).toBe('nomad-wording-2026-qc.pdf');
    expect((await summary('?countryCode=USA&lang=es')).filename).toBe('nomad-wording-2026-es.pdf');
    expect((await summary('?countryCode=USA')).filename).toBe('nomad-wording-2026-us.pdf');
    expect(await summary('?lang=es')).toMatchObject({ filename: 'nomad-wording-2026-es.pdf', contentLanguage: ['es'] });
  });

  it('sends ETag and Cache-Control from expirySeconds; If-None-Match gets 304', async () => {
    const first = await get('brandnz', '/products/v1/brandnz/baseQuoteConfig');
    expect(first.headers['cache-control']).toBe(`private, max-age=${String(first.json().expirySeconds)}`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get('brandnz', '/products/v1/brandnz/baseQuoteConfig', { 'if-none-match': `W/"x", ${etag}` });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const other = await get('brandnz', '/products/v1/brandnz/baseQuoteConfig?quoteType=MULTITRIP', { 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
  });

  it('notices a newer import', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
    try {
      cpSync('catalogue', dir, { recursive: true });
      const file = join(dir, 'brandau/brand.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('name: Brand Australia Travel Insurance', 'name: Brand Australia Travel Cover'));
      const before = await get('brandau', '/products/v1/brandau/brands');
      expect((await importCatalogue(testApp().context.db, dir)).kind).toBe('imported');
      const after = await get('brandau', '/products/v1/brandau/brands', { 'if-none-match': String(before.headers.etag) });
      expect(after.statusCode).toBe(200);
      expect(after.json().name).toBe('Brand Australia Travel Cover');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
