import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SECRET_LINK_HEADERS, sendSecretLinkPage } from '../http/secret-link-page.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { catalogueReaderFor } from '../catalogue/reader.js';
import { documentLinkLimit, type RateLimits } from '../http/limits/rate-limits.js';
import { isHexColour, SERVICE_LOOK, type PageLook } from '../kernel/html/look.js';
import type { QuotePorts } from '../quotes/ports.js';
import type { ScreeningEngineFor } from './live-engine.js';
import { openScreeningLink, type ScreeningLinkDeps, type ScreeningLinkOpening } from './link-service.js';
import { postPage, showPage, type PageAnswer } from './page-flow.js';
import { messagePage } from './page.js';
import { PAGE_WORDS } from './page-words.js';
import { ScreeningPageForm, ScreeningPageParams } from './schemas.js';

/** The hosted screening page (issue 30): public, the link's value is the key; HTTP only. */

const PAGE_HEADERS = {
  'Content-Security-Policy': {
    type: 'string',
    pattern: "^default-src 'none'; ",
    description:
      "Only the page's one inline style (by its hash) and `data:` images; no script; forms post only to this origin; no framing.",
  },
  'Referrer-Policy': {
    type: 'string',
    enum: ['no-referrer'],
    description: 'The secret URL never leaves as a referrer.',
  },
  'X-Robots-Tag': { type: 'string', enum: ['noindex, nofollow'], description: 'Never indexed.' },
  'Cache-Control': { type: 'string', enum: ['no-store'], description: 'Never kept by a browser or a proxy.' },
  'X-Content-Type-Options': { type: 'string', enum: ['nosniff'], description: 'Browsers keep the declared type.' },
  'X-Frame-Options': { type: 'string', enum: ['DENY'], description: 'Never shown in a frame.' },
};
const TOO_MANY = {
  description: 'Too many requests from this client address; see `Retry-After`.',
  headers: { 'X-Robots-Tag': PAGE_HEADERS['X-Robots-Tag'], 'Cache-Control': PAGE_HEADERS['Cache-Control'] },
  content: { 'text/plain': { schema: { type: 'string' } } },
};
const SEE_PAGE = {
  type: 'null',
  description: 'Saved: see the page again (its next step), by GET on the same URL.',
  headers: {
    Location: { type: 'string', description: 'The same page.' },
    'X-Robots-Tag': PAGE_HEADERS['X-Robots-Tag'],
    'Cache-Control': PAGE_HEADERS['Cache-Control'],
  },
};
const page = (description: string) => ({
  description,
  headers: PAGE_HEADERS,
  content: { 'text/html': { schema: { type: 'string' } } },
});

const LINK =
  'Public (no bearer token): the link value is the key, bound to one quote and traveller. It opens until its `expiresAt`; after that, or once a newer link was made for the traveller, it answers 410. A value that opens nothing answers the same 404 page whatever it is. Requests are limited per client address (`RATE_LIMIT_SCREENING_LINK_PER_ADDRESS` per window; 429 with `Retry-After`).';

/** The brand's look from its catalogue content (BRANDCOLOUR, BRANDLOGO). */
async function lookOf(context: AppContext, brandCode: string, language: string): Promise<PageLook> {
  // No catalogue to read (tests with in-memory quote ports): the service's own look.
  const snapshot = await catalogueReaderFor(context.db)
    .snapshot()
    .catch(() => undefined);
  const brand = snapshot?.brands.get(brandCode);
  if (!brand) return SERVICE_LOOK;
  const items = [
    ...(brand.brand.contentItems[brand.brand.defaultLanguage] ?? []),
    ...(brand.brand.contentItems[language] ?? []),
  ];
  const item = (type: string) => items.findLast((i) => i.type === type)?.content;
  const colour = item('BRANDCOLOUR');
  const logoSvg = item('BRANDLOGO');
  return {
    name: brand.brand.name,
    colour: colour && isHexColour(colour) ? colour : SERVICE_LOOK.colour,
    ...(logoSvg ? { logoSvg } : {}),
  };
}

export const screeningPageRoutes: FastifyPluginAsyncTypebox<{
  context: AppContext;
  ports: QuotePorts;
  engineFor: ScreeningEngineFor;
  limits?: RateLimits;
}> = async (app, { context, ports, engineFor, limits }) => {
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) await app.register(formbody);
  const deps = (language?: string): ScreeningLinkDeps => ({
    db: context.db,
    clock: context.clock,
    secret: context.config.auth.keyEncryptionSecret,
    engineFor,
    catalogue: ports.catalogue,
    ...(language ? { language } : {}),
    linkHours: context.config.screening.linkHours,
    production: context.config.env === 'production',
    linkBaseUrl: `${context.config.publicBaseUrl}${context.config.basePath}`,
  });
  const onRequest = documentLinkLimit(
    limits,
    (reply, headers) =>
      reply
        .code(429)
        .headers({ ...SECRET_LINK_HEADERS, 'Cache-Control': 'no-store', ...headers })
        .type('text/plain; charset=utf-8')
        .send('Too many requests.\n'),
    'screening-link',
  );
  // A malformed form or a refused field is a page too; a failure never shows (nor logs) what was posted.
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const words = PAGE_WORDS.en;
    const status = error.validation || (error.statusCode ?? 500) < 500 ? 400 : 500;
    if (status === 500) request.log.error({ errorName: error.name, code: error.code }, 'screening page failed');
    return sendSecretLinkPage(reply, status, messagePage('en', words.refusedTitle, words.refusedText));
  });

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    value: string,
    run: (opened: Extract<ScreeningLinkOpening, { state: 'open' }>, d: ScreeningLinkDeps) => Promise<PageAnswer>,
  ) {
    const opened = await openScreeningLink(deps(), value);
    if (opened.state === 'unknown') {
      const words = PAGE_WORDS.en;
      return sendSecretLinkPage(reply, 404, messagePage('en', words.notFoundTitle, words.notFoundText));
    }
    if (opened.state === 'expired') {
      const words = PAGE_WORDS[opened.language];
      return sendSecretLinkPage(reply, 410, messagePage(opened.language, words.expiredTitle, words.expiredText));
    }
    const result = await run(opened, deps(opened.language));
    if ('redirect' in result)
      return reply
        .code(303)
        .headers(SECRET_LINK_HEADERS)
        .header('Cache-Control', 'no-store')
        .redirect(request.url, 303);
    return sendSecretLinkPage(reply, result.status, result.page);
  }
  const pageOf = async (opened: Extract<ScreeningLinkOpening, { state: 'open' }>, d: ScreeningLinkDeps) => ({
    deps: d,
    opened,
    look: await lookOf(context, opened.link.brandCode, opened.language),
  });

  app.get(
    '/screening/v1/:value',
    {
      onRequest,
      schema: {
        tags: ['screening'],
        operationId: 'screeningPage',
        summary: "The traveller's hosted screening page",
        description: `HTML for the traveller's browser, working without JavaScript: who answers (the traveller or a person they authorised), the questions, finishing, the result with a link back to the partner's \`returnUrl\`. Reading it changes nothing. ${LINK}`,
        params: ScreeningPageParams,
        response: {
          200: page('The step the screening is at.'),
          404: page('Not found: the same page for every value that opens nothing.'),
          409: page('The screening cannot change (the quote was bought, or it no longer screens this traveller).'),
          410: page('The link expired or was replaced by a newer one.'),
          429: TOO_MANY,
        },
      },
    },
    (request, reply) => answer(request, reply, request.params.value, async (o, d) => showPage(await pageOf(o, d))),
  );

  app.post(
    '/screening/v1/:value',
    {
      onRequest,
      schema: {
        tags: ['screening'],
        operationId: 'screeningPageForm',
        summary: 'A form of the hosted screening page',
        description: `\`application/x-www-form-urlencoded\` (what the page's own form posts), or the same fields as a JSON object (what /docs "Try it out" sends): \`step\` (\`who\`, \`answers\`, \`complete\`), \`csrf\` (the form's token: an HMAC of the link and the step), and the step's fields. Calls the same start, answer and complete as the API; then 303 to the page. A wrong or missing token: 403 and nothing stored. Problems come back as the form with an error summary linked to each field (400). ${LINK}`,
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: ScreeningPageParams,
        body: ScreeningPageForm,
        response: {
          303: SEE_PAGE,
          400: page('The form again, with its problems.'),
          403: page('The form token was wrong: nothing was stored.'),
          404: page('Not found.'),
          409: page('The screening cannot change.'),
          410: page('The link expired or was replaced.'),
          429: TOO_MANY,
        },
      },
    },
    (request, reply) =>
      answer(request, reply, request.params.value, async (o, d) => postPage(await pageOf(o, d), request.body)),
  );
};
