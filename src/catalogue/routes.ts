import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { CachedResponse } from '../http/front-cache/cache-headers.js';
import type { FrontCache } from '../http/front-cache/front-cache.js';
import { BrandParams, pdfAnswer } from '../http/schemas.js';
import { errorResponses } from '../http/error-responses.js';
import { PdsNotFound, UnknownBrandId, UnknownInsuranceContract, UnknownPlanCode } from './errors.js';
import type { DomainError } from '../kernel/errors.js';
import { cached, json, sendCached } from './http-cache.js';
import type { BrandCatalogue } from './model.js';
import type { CatalogueSnapshot } from './reader.js';
import { brandCodeById } from './repository.js';
import { brandContentBody, featuresBody, partnerGroupsOf, pdsSummaryBody, planBody, quoteConfigBody, resolveLanguage, selectPds } from './responses.js';
import {
  BrandContentResponse, BrandIdParams, ContractParams, FeaturesResponse, LangQuery, PdsQuery, PdsSummaryResponse, PlanResponse, PlansQuery,
  QuoteConfigQuery, QuoteConfigResponse,
} from './schemas.js';
import { nextMidnightIn } from '../kernel/calendar/zones.js';
import { brandOf, brandTimeZone, callerPartner, catalogueOf, effectiveDate, planVersionAt } from './service.js';
import { principalOf } from '../auth/principal.js';

const NOT_MODIFIED = { type: 'null', description: 'Not modified: `If-None-Match` named the current ETag.' } as const;
/** A product read's errors: a 404 of its own where it names more than the brand. */
const errors = (...notFound: DomainError[]) => errorResponses(400, 401, 403, ...(notFound.length > 0 ? notFound : [404]), 503);
const tags = ['products'];
const CACHING = ' Answers carry `ETag` and `Cache-Control: private, max-age=<expirySeconds>`; `If-None-Match` with the ETag gets 304.';

/** Product configuration endpoints (spec §4.4–4.9) and the PDS document itself. */
export const productRoutes: FastifyPluginAsyncTypebox<{ context: AppContext; frontCache?: FrontCache }> = (app, { context, frontCache }) => {
  const catalogue = catalogueOf(context);
  /** Sends `entry`, and lets the front cache answer the same URL from memory while it holds. */
  const answer = (request: FastifyRequest, reply: FastifyReply, snapshot: CatalogueSnapshot, brand: BrandCatalogue, entry: CachedResponse, validUntilMs = Infinity, partnerCode?: string) => {
    frontCache?.remember(request.url, { brandCode: brand.brandCode, ...(partnerCode === undefined ? {} : { partnerCode }), route: request.routeOptions.url ?? '', versionId: snapshot.versionId, validUntilMs, response: entry });
    return sendCached(request, reply, entry);
  };

  app.get('/products/v1/:brandCode/baseQuoteConfig', {
    schema: {
      tags, operationId: 'getBaseQuoteConfig', summary: 'Quote configuration',
      description: `Traveller, age, advance-purchase and duration limits and destination restrictions per home country, for one quote type.${CACHING}`,
      params: BrandParams, querystring: QuoteConfigQuery, response: { 200: QuoteConfigResponse, 304: NOT_MODIFIED, ...errors() },
    },
  }, async (request, reply) => {
    const snapshot = await catalogue.snapshot();
    const brand = brandOf(snapshot, request.params.brandCode);
    const quoteType = request.query.quoteType ?? 'SINGLETRIP'; // validation fills the default; this satisfies the type
    const entry = cached(snapshot, `config/${brand.brandCode}/${quoteType}`, () => json(quoteConfigBody(brand, quoteType), brand.quoteConfig.expirySeconds));
    return answer(request, reply, snapshot, brand, entry);
  });

  app.get('/products/v1/:brandCode/plans', {
    schema: {
      tags, operationId: 'getPlanByCode', summary: 'Plan configuration by code',
      description: `The version of plan \`planCode\` in force at \`effectiveAt\` (default today in the brand's time zone): 404 \`UNKNOWN_PLAN_CODE\` or \`PLAN_NOT_SOLD\`. Purchase terms reserved to partner groups are listed for the caller's own partner only (the token's); \`partnerCode\`, when sent, must be that partner: another partner's code answers 403 \`PARTNER_NOT_ALLOWED\`.${CACHING}`,
      params: BrandParams, querystring: PlansQuery, response: { 200: PlanResponse, 304: NOT_MODIFIED, ...errors(new UnknownPlanCode('COMPX')) },
    },
  }, async (request, reply) => {
    const snapshot = await catalogue.snapshot();
    const brand = brandOf(snapshot, request.params.brandCode);
    const { planCode, effectiveAt, lang, partnerCode } = request.query;
    const partner = callerPartner(principalOf(request), partnerCode);
    const now = context.clock();
    const plan = planVersionAt(brand, planCode, effectiveDate(snapshot, brand, effectiveAt, now));
    const language = resolveLanguage(brand, lang);
    const groups = partnerGroupsOf(brand, partner);
    const entry = cached(snapshot, `plan/${plan.planId}/${language}/${groups.join(',')}`, () =>
      json(planBody(brand, plan, language, groups), brand.brand.expirySeconds),
    );
    // Without effectiveAt the plan in force is today's: the answer holds until local midnight.
    // The terms depend on the caller's partner: the front cache answers each partner its own.
    return answer(request, reply, snapshot, brand, entry, effectiveAt === undefined ? nextMidnightIn(now, brandTimeZone(snapshot, brand)) : Infinity, partner);
  });

  app.get('/products/v1/:brandCode/brands', {
    schema: {
      tags, operationId: 'getBrandContent', summary: 'Brand content',
      description: `Content items of the brand in \`lang\` (items missing in it, or an unknown \`lang\`, fall back to the brand's default language).${CACHING}`,
      params: BrandParams, querystring: LangQuery, response: { 200: BrandContentResponse, 304: NOT_MODIFIED, ...errors() },
    },
  }, async (request, reply) => {
    const snapshot = await catalogue.snapshot();
    const brand = brandOf(snapshot, request.params.brandCode);
    const language = resolveLanguage(brand, request.query.lang);
    return answer(request, reply, snapshot, brand, cached(snapshot, `brand/${brand.brandCode}/${language}`, () => json(brandContentBody(brand, language), brand.brand.expirySeconds)));
  });

  app.get('/products/v1/:brandCode/brands/:brandId', {
    schema: {
      tags, operationId: 'getBrandContentById', summary: 'Brand content by id',
      description: `Content of the brand with internal id \`brandId\` (1 brandau, 2 brandnz, 3 directau, 4 nomad); \`brandCode\` must be valid but is ignored. Unknown id: 404 \`UNKNOWN_BRAND_ID\`.${CACHING}`,
      params: BrandIdParams, querystring: LangQuery, response: { 200: BrandContentResponse, 304: NOT_MODIFIED, ...errors(new UnknownBrandId(9)) },
    },
  }, async (request, reply) => {
    const code = await brandCodeById(context.db, request.params.brandId);
    if (!code) throw new UnknownBrandId(request.params.brandId);
    const snapshot = await catalogue.snapshot();
    const brand = brandOf(snapshot, code);
    const language = resolveLanguage(brand, request.query.lang);
    // Not left to the front cache: the brand comes from a database lookup its catalogue version check does not cover.
    return sendCached(request, reply, cached(snapshot, `brand/${brand.brandCode}/${language}`, () => json(brandContentBody(brand, language), brand.brand.expirySeconds)));
  });

  app.get('/products/v1/:brandCode/features/:insuranceContractId', {
    schema: {
      tags, operationId: 'getFeatureSwitches', summary: 'Feature switches',
      description: `Feature switches of an insurance contract of this brand; another brand's or an unknown contract: 404 \`UNKNOWN_INSURANCE_CONTRACT\`.${CACHING}`,
      params: ContractParams, response: { 200: FeaturesResponse, 304: NOT_MODIFIED, ...errors(new UnknownInsuranceContract(9999)) },
    },
  }, async (request, reply) => {
    const snapshot = await catalogue.snapshot();
    const brand = brandOf(snapshot, request.params.brandCode);
    const id = request.params.insuranceContractId;
    return answer(request, reply, snapshot, brand, cached(snapshot, `features/${brand.brandCode}/${id}`, () => json(featuresBody(brand, id), brand.brand.expirySeconds)));
  });

  app.get('/products/v2/:brandCode/insuranceContract/:insuranceContractId/pdsSummary', {
    schema: {
      tags, operationId: 'getPdsSummary', summary: 'PDS metadata',
      description: `Describes the PDS document \`/pds\` returns for the same selection: language (fallback: default), home country, province, plan version; the most specific document wins.${CACHING.replace('<expirySeconds>', "<brand's expirySeconds>")}`,
      params: ContractParams, querystring: PdsQuery, response: { 200: PdsSummaryResponse, 304: NOT_MODIFIED, ...errors(new PdsNotFound(9999)) },
    },
  }, async (request, reply) => {
    const snapshot = await catalogue.snapshot();
    const brand = brandOf(snapshot, request.params.brandCode);
    const id = request.params.insuranceContractId;
    const doc = selectPds(brand, id, request.query);
    return answer(request, reply, snapshot, brand, cached(snapshot, `pdsSummary/${id}/${doc.key}`, () => json(pdsSummaryBody(doc), brand.brand.expirySeconds)));
  });

  app.get('/products/v2/:brandCode/insuranceContract/:insuranceContractId/pds', {
    schema: {
      tags, operationId: 'getPds', summary: 'PDS document (PDF)',
      description: `The product disclosure statement as \`application/pdf\`, selected as \`pdsSummary\` selects it. Rendered from catalogue content at import.${CACHING.replace('<expirySeconds>', "<brand's expirySeconds>")}`,
      params: ContractParams, querystring: PdsQuery,
      response: { 200: pdfAnswer('The PDF document.', 'inline'), 304: NOT_MODIFIED, ...errors(new PdsNotFound(9999)) },
    },
  }, async (request, reply) => {
    const snapshot = await catalogue.snapshot();
    const brand = brandOf(snapshot, request.params.brandCode);
    const id = request.params.insuranceContractId;
    const doc = selectPds(brand, id, request.query);
    const file = snapshot.pds.get(`${id}/${doc.key}`);
    if (!file) throw new Error(`PDS file ${id}/${doc.key} missing from catalogue version ${snapshot.versionId}`);
    const entry = cached(snapshot, `pds/${id}/${doc.key}`, () => ({ payload: file.content, maxAgeSeconds: brand.brand.expirySeconds, contentType: 'application/pdf' }));
    // Not left to the front cache: it sends only a stored answer's headers, and this one adds Content-Disposition.
    reply.header('content-disposition', `inline; filename="${file.filename}"`);
    return sendCached(request, reply, entry);
  });
  return Promise.resolve();
};
