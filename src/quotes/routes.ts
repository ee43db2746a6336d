import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import { BrandParams } from '../http/schemas.js';
import { errorResponses } from '../http/error-responses.js';
import { toContractQuote } from './contract.js';
import type { QuotePorts } from './ports.js';
import { referralsFor } from './live-ports.js';
import { principalOf } from '../auth/principal.js';
import { Quote, QuoteIdParam, QuoteRequest } from './schemas.js';
import { createQuote, readQuote, reviseQuote, type QuotesDeps } from './service.js';
import { QuoteNotFound, QuotePurchased } from './errors.js';

const QuoteParams = Type.Object({ ...BrandParams.properties, quoteId: QuoteIdParam });
const tags = ['quotes'];
const EVALUATION_NOTE =
  'Validation problems do not fail the call: the quote answers 200 with `validation.isValid: false` and one Notification per problem (`title` is `error` or `warning`); only wrong JSON types are a 400. A card number anywhere in the body is refused with 400 `CARD_NUMBER_REFUSED` and never stored.';

/** Quote endpoints (spec §4.3 and the quote operations issue 5 decides). HTTP only. */
export const quotesRoutes: FastifyPluginAsyncTypebox<{ context: AppContext; ports: QuotePorts }> = (
  app,
  { context, ports },
) => {
  const deps: QuotesDeps = { db: context.db, ports, clock: context.clock, referrals: referralsFor(context) };

  // Before schema validation, so a card number is refused even in an otherwise malformed body.

  app.post(
    '/quotes/v2/:brandCode/quote',
    {
      schema: {
        tags,
        operationId: 'createQuote',
        summary: 'Create and evaluate a quote',
        description: `Validates, prices and stores a quote owned by the caller's partner. With \`input.skipPersistence: true\` it is priced but not stored and has no \`id\`. Server-owned fields in the body are ignored. ${EVALUATION_NOTE}`,
        params: BrandParams,
        body: QuoteRequest,
        response: { 200: Quote, ...errorResponses(400, 401, 403, 404, 413, 415, 503) },
      },
    },
    async (request) =>
      toContractQuote(await createQuote(deps, principalOf(request), request.params.brandCode, request.body)),
  );

  app.put(
    '/quotes/v2/:brandCode/quote/:quoteId',
    {
      schema: {
        tags,
        operationId: 'updateQuote',
        summary: 'Change and re-evaluate a quote',
        description: `Re-evaluates a stored quote with a changed Quote (plan, options, holders, stage). \`hasConfigChanged\` is true when the catalogue or rates that priced it before are no longer in force. A purchased quote, or one whose purchase is running, answers 409. ${EVALUATION_NOTE}`,
        params: QuoteParams,
        body: QuoteRequest,
        response: {
          200: Quote,
          ...errorResponses(
            400,
            401,
            403,
            new QuoteNotFound('01a22460-6a97-71c6-aaa3-541d03ff7a02'),
            new QuotePurchased(),
            413,
            415,
            503,
          ),
        },
      },
    },
    async (request) =>
      toContractQuote(
        await reviseQuote(deps, principalOf(request), request.params.brandCode, request.params.quoteId, request.body),
      ),
  );

  app.get(
    '/quotes/v2/:brandCode/quote/:quoteId',
    {
      schema: {
        tags,
        operationId: 'getQuote',
        summary: 'Retrieve a quote',
        description:
          'Returns the stored quote (spec §4.3). A quote of another partner, or an unknown id, answers 404 `QUOTE_NOT_FOUND`.',
        params: QuoteParams,
        response: {
          200: Quote,
          ...errorResponses(400, 401, 403, new QuoteNotFound('01a22460-6a97-71c6-aaa3-541d03ff7a02'), 503),
        },
      },
    },
    async (request) =>
      toContractQuote(await readQuote(deps, principalOf(request), request.params.brandCode, request.params.quoteId)),
  );
  return Promise.resolve();
};
