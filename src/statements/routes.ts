import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/principal.js';
import { catalogueReaderFor } from '../catalogue/reader.js';
import type { AppContext } from '../context.js';
import { BrandParams } from '../http/schemas.js';
import { errorResponses } from '../http/error-responses.js';
import { statementCsv } from './csv.js';
import { monthListOf, statementBody } from './present.js';
import { representationOf } from './representation.js';
import { StatementList, StatementParams, StatementSchema } from './schemas.js';
import { getStatement, listStatements, type StatementDeps, type StatementScope } from './service.js';
import { getTaxInvoice } from './tax-invoice.js';
import { StatementNotFound } from './errors.js';

const scopeOf = (request: FastifyRequest, brandCode: StatementScope['brandCode']): StatementScope => {
  const { partnerId, partnerCode } = principalOf(request);
  return { partnerId, partnerCode, brandCode };
};

const CSV_EXAMPLE =
  'record,month,date,policyNumber,policyDetailNumber,action,paymentMethod,transactionCount,reference,currencyCode,premium,discount,tax:GST,donation,fees,total\r\n' +
  'TRANSACTION,2026-11,2026-11-02T01:02:03.000Z,CTI-AU-2026-000001,CTI-AU-2026-000001-1,Purchase,ON_ACCOUNT,,,AUD,200.00,0.00,20.00,0.00,0.00,220.00\r\n' +
  'TOTAL,2026-11,,,,,CARD,0,,AUD,0.00,0.00,0.00,0.00,0.00,0.00\r\n' +
  'TOTAL,2026-11,,,,,ON_ACCOUNT,1,,AUD,200.00,0.00,20.00,0.00,0.00,220.00\r\n' +
  'DUE,2026-11,,,,,ON_ACCOUNT,,,AUD,,,,,,220.00\r\n';

/** The 200 of a month: JSON, CSV or the on-account tax invoice, by `Accept`. */
const StatementAnswer = {
  description:
    'The statement, in the representation `Accept` asks for: `application/json` (the default), `text/csv` (one row per transaction, then totals and the on-account rows: docs/api-contract.md "Statements"), or `application/pdf` (the tax invoice of the on-account part).',
  headers: {
    Vary: { type: 'string', enum: ['Accept'], description: 'The answer depends on `Accept`.' },
    'Content-Disposition': {
      type: 'string',
      required: false,
      pattern: '^attachment; filename="[^"]+"$',
      description: 'CSV and PDF only: `attachment; filename="…"`.',
    },
    'X-Content-Type-Options': {
      type: 'string',
      required: false,
      enum: ['nosniff'],
      description: 'CSV and PDF only: browsers keep the media type.',
    },
  },
  content: {
    'application/json': { schema: StatementSchema },
    'text/csv': { schema: { type: 'string', examples: [CSV_EXAMPLE] } },
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
  },
};

const MONTH_ERRORS =
  '400 `INVALID_STATEMENT_MONTH` when `{month}` is not `yyyy-mm`; 400 `STATEMENT_MONTH_IN_FUTURE` when it has not begun in the brand’s time zone; 404 `STATEMENT_NOT_FOUND` for a past month in which you had no transaction and made no payment under the brand (property `month` in each).';

/** A partner's monthly statements (issue 29, part 3); registered inside the protected scope. */
export const statementsRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = (app, { context }) => {
  const deps: StatementDeps = { db: context.db, catalogue: catalogueReaderFor(context.db), clock: context.clock };

  app.get(
    '/partners/v1/:brandCode/statements',
    {
      schema: {
        tags: ['statements'],
        operationId: 'listStatements',
        summary: 'Your statement months',
        description:
          'The months in which you had a policy transaction or made a payment under the brand, newest first, each `OPEN` (the current month) or `CLOSED`. Months are those of the brand’s time zone.',
        params: BrandParams,
        response: { 200: StatementList, ...errorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request): Promise<StatementList> =>
      monthListOf(await listStatements(deps, scopeOf(request, request.params.brandCode))),
  );

  app.get(
    '/partners/v1/:brandCode/statements/:month',
    {
      schema: {
        tags: ['statements'],
        operationId: 'getStatement',
        summary: 'One month’s statement (JSON, CSV or PDF tax invoice)',
        description: `Every policy transaction of yours under the brand that committed in the month (brand’s time zone), with its money, the totals per payment method, and the on-account part: balance brought forward, charged, credited, payments received, due. A closed month never changes. \`Accept: text/csv\` answers CSV, \`Accept: application/pdf\` the tax invoice of the on-account part. ${MONTH_ERRORS}`,
        params: StatementParams,
        response: {
          200: StatementAnswer,
          ...errorResponses(400, 401, 403, new StatementNotFound('2026-10'), 429, 500),
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request, request.params.brandCode);
      const media = representationOf(request.headers.accept);
      if (media === 'application/pdf') {
        const invoice = await getTaxInvoice(deps, scope, request.params.month);
        return reply
          .header('vary', 'Accept')
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${invoice.fileName}"`)
          .header('x-content-type-options', 'nosniff')
          .send(Buffer.from(invoice.content));
      }
      const statement = await getStatement(deps, scope, request.params.month);
      if (media === 'text/csv') {
        const name = `statement-${statement.brandCode}-${statement.period.month}.csv`;
        return reply
          .header('vary', 'Accept')
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('x-content-type-options', 'nosniff')
          .send(statementCsv(statement));
      }
      return reply.header('vary', 'Accept').type('application/json; charset=utf-8').send(statementBody(statement));
    },
  );
  return Promise.resolve();
};
