import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { documentLinkLimit, type RateLimits } from '../http/limits/rate-limits.js';
import { documentLinkPage, NOT_FOUND_PAGE } from './link-page.js';
import { documentThroughLink, openDocumentLink, type LinkDeps } from './link-service.js';
import { documentDepsOf, sendPdf } from './routes.js';
import { DocumentLinkFileParams, DocumentLinkParams, HtmlAnswer, PdfAnswer } from './schemas.js';

/** Headers of every answer of the link: no script, no referrer leak of the secret URL, not indexed. */
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

/** The same headers in the OpenAPI document (Cache-Control is documented on every answer already). */
const { 'Cache-Control': _documentedEverywhere, ...pageHeaders } = PAGE_HEADERS;
const PAGE_HEADER_DOCS = Object.fromEntries(
  Object.entries(pageHeaders).map(([name, value]) => [
    name,
    { type: 'string', enum: [value], description: 'On every answer of the customer link.' },
  ]),
);
const withPageHeaders = (answer: { description: string; headers?: object; content: object }) => ({
  ...answer,
  headers: { ...answer.headers, ...PAGE_HEADER_DOCS },
});

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);

const LINK =
  'Public (no bearer token): the link value is the key. It opens until the end of the cover plus `DOCUMENT_LINK_DAYS_AFTER_COVER` days (90 unless configured). A wrong, expired or malformed value answers the same plain 404 page. Requests are limited per client address (`RATE_LIMIT_DOCUMENT_LINK_PER_ADDRESS` per window; 429 with `Retry-After`).';

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
      .headers({ ...PAGE_HEADERS, ...headers })
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
        description: `A small HTML page listing the policy's documents with download links. ${LINK}`,
        params: DocumentLinkParams,
        response: {
          200: withPageHeaders(HtmlAnswer('The page.')),
          404: withPageHeaders(HtmlAnswer('Not found (the same page for every wrong or expired value).')),
          429: withPageHeaders(TOO_MANY),
        },
      },
    },
    async (request, reply) => {
      const value = request.params.policyDocumentAccessGuid;
      const opened = await openDocumentLink(depsAt(), value);
      if (!opened) return html(reply, 404, NOT_FOUND_PAGE);
      const page = documentLinkPage({
        ...opened,
        // Relative to /documents/v1/{value}: works under any BASE_PATH.
        hrefOf: (doc) => `${encodeURIComponent(value)}/${encodeURIComponent(doc.documentId)}`,
      });
      return html(reply, 200, page);
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
          404: withPageHeaders(HtmlAnswer('Not found (the same page for every wrong or expired value).')),
          429: withPageHeaders(TOO_MANY),
        },
      },
    },
    async (request, reply) => {
      const { policyDocumentAccessGuid, documentId } = request.params;
      const file = await documentThroughLink(depsAt(), policyDocumentAccessGuid, documentId);
      if (!file) return html(reply, 404, NOT_FOUND_PAGE);
      return sendPdf(reply.headers(PAGE_HEADERS), file, 'no-store');
    },
  );
  return Promise.resolve();
};
