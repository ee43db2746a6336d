import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SECRET_LINK_HEADERS, sendSecretLinkPage } from '../http/secret-link-page.js';
import type { AppContext } from '../context.js';
import { documentLinkLimit, type RateLimits } from '../http/limits/rate-limits.js';
import { customerDocumentsPage, linkExpiredPage, linkNotFoundPage } from './link-page.js';
import { documentThroughLink, openDocumentLink, type LinkDeps } from './link-service.js';
import { documentDepsOf, sendPdf } from './routes.js';
import { DocumentLinkFileParams, DocumentLinkParams, DocumentLinkQuery, HtmlAnswer, PdfAnswer } from './schemas.js';

/** The headers of a PDF answer (it has no style, so its policy allows nothing at all). */
const FILE_HEADERS = {
  ...SECRET_LINK_HEADERS,
  'Content-Security-Policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

/** The page headers in the OpenAPI document (Cache-Control is documented on every answer already). */
const PAGE_HEADER_DOCS = {
  'Content-Security-Policy': {
    type: 'string',
    pattern: "^default-src 'none'; ",
    description:
      "Nothing may load but the page's one inline style (allowed by its `sha256-` hash) and `data:` images (the brand's mark); no script, no form, no framing.",
  },
  'Referrer-Policy': {
    type: 'string',
    enum: ['no-referrer'],
    description: 'The secret URL never leaves as a referrer.',
  },
  'X-Robots-Tag': { type: 'string', enum: ['noindex, nofollow'], description: 'Never indexed.' },
  'X-Content-Type-Options': { type: 'string', enum: ['nosniff'], description: 'Browsers keep the declared type.' },
  'X-Frame-Options': { type: 'string', enum: ['DENY'], description: 'Never shown in a frame.' },
};
const withPageHeaders = (answer: { description: string; headers?: object; content: object }) => ({
  ...answer,
  headers: { ...answer.headers, ...PAGE_HEADER_DOCS },
});

const LINK =
  "Public (no bearer token): the link value is the key. It opens until the end of the cover plus `DOCUMENT_LINK_DAYS_AFTER_COVER` days (90 unless configured); after that the value answers 410 with the brand's contacts. A wrong or malformed value answers the same 404 page whatever it is. Requests are limited per client address (`RATE_LIMIT_DOCUMENT_LINK_PER_ADDRESS` per window; 429 with `Retry-After`).";

const NOT_FOUND = 'Not found: the same page for every value that opens nothing (no brand, nothing of the value).';
const EXPIRED =
  "The link's value was real and has expired: the brand's page saying so, with its contacts, nothing of the policy.";
const TOO_MANY = {
  description: 'Too many link requests from this client address; see `Retry-After`.',
  content: { 'text/plain': { schema: { type: 'string' } } },
};

/** The customer's document link (issue 20): registered outside the bearer guard. */
export const documentLinkRoutes: FastifyPluginAsyncTypebox<{ context: AppContext; limits?: RateLimits }> = (
  app,
  { context, limits },
) => {
  const depsAt = (): LinkDeps => ({
    ...documentDepsOf(context),
    now: context.clock(),
    linkDaysAfterCover: context.config.documents.linkDaysAfterCover,
  });
  const onRequest = documentLinkLimit(limits, (reply, headers) =>
    reply
      .code(429)
      .headers({ ...FILE_HEADERS, 'Cache-Control': 'no-store', ...headers })
      .type('text/plain; charset=utf-8')
      .send('Too many requests.\n'),
  );

  app.get(
    '/documents/v1/:policyDocumentAccessGuid',
    {
      onRequest,
      schema: {
        tags: ['documents'],
        operationId: 'documentLinkPage',
        summary: "The customer's document page",
        description: `The brand's HTML page of the policy: its facts and status, its documents by transaction and language with download links, the emergency number and the brand's contacts. ${LINK}`,
        params: DocumentLinkParams,
        querystring: DocumentLinkQuery,
        response: {
          200: withPageHeaders(HtmlAnswer('The page.')),
          404: withPageHeaders(HtmlAnswer(NOT_FOUND)),
          410: withPageHeaders(HtmlAnswer(EXPIRED)),
          429: withPageHeaders(TOO_MANY),
        },
      },
    },
    async (request, reply) => {
      const value = request.params.policyDocumentAccessGuid;
      const opened = await openDocumentLink(depsAt(), value, request.query.lang);
      if (opened.state === 'unknown') return sendSecretLinkPage(reply, 404, linkNotFoundPage(opened.language));
      if (opened.state === 'expired')
        return sendSecretLinkPage(reply, 410, linkExpiredPage(opened.brand, opened.language));
      const page = customerDocumentsPage({
        ...opened,
        // Relative to /documents/v1/{value}: works under any BASE_PATH.
        hrefOf: (doc) => `${encodeURIComponent(value)}/${encodeURIComponent(doc.documentId)}`,
      });
      return sendSecretLinkPage(reply, 200, page);
    },
  );

  app.get(
    '/documents/v1/:policyDocumentAccessGuid/:documentId',
    {
      onRequest,
      schema: {
        tags: ['documents'],
        operationId: 'documentLinkFile',
        summary: 'One document through the customer link (PDF)',
        description: `The PDF of one document listed on the page. ${LINK}`,
        params: DocumentLinkFileParams,
        response: {
          200: withPageHeaders(PdfAnswer),
          404: withPageHeaders(HtmlAnswer(NOT_FOUND)),
          410: withPageHeaders(HtmlAnswer(EXPIRED)),
          429: withPageHeaders(TOO_MANY),
        },
      },
    },
    async (request, reply) => {
      const { policyDocumentAccessGuid, documentId } = request.params;
      const deps = depsAt();
      const file = await documentThroughLink(deps, policyDocumentAccessGuid, documentId);
      if (file === 'expired') {
        const opened = await openDocumentLink(deps, policyDocumentAccessGuid);
        if (opened.state === 'expired')
          return sendSecretLinkPage(reply, 410, linkExpiredPage(opened.brand, opened.language));
      }
      if (!file || file === 'expired') return sendSecretLinkPage(reply, 404, linkNotFoundPage('en'));
      return sendPdf(reply.headers(FILE_HEADERS), file, 'no-store');
    },
  );
  return Promise.resolve();
};
