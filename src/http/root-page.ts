import type { FastifyInstance } from 'fastify';
import { html } from '../kernel/html/markup.js';
import { SERVICE_LOOK } from '../kernel/html/look.js';
import { renderPage } from '../kernel/html/page.js';

/**
 * `GET /`: a person who opens the server's address learns where the API is described (the
 * rendered document at /docs, the OpenAPI document itself); every other unknown path keeps the
 * API's JSON 404. Rendered once: it depends on nothing but the base path.
 */
export function registerRootPage(app: FastifyInstance, basePath: string): void {
  const page = renderPage({
    lang: 'en',
    title: 'Partner API',
    look: { ...SERVICE_LOOK, name: 'Travel insurance partner API' },
    main: html`<h1>Travel insurance partner API</h1>
      <p>This server answers partners' systems: quotes, purchases, policies, their changes and documents.</p>
      <ul>
        <li><a href="docs">The API reference</a> (the OpenAPI document, rendered)</li>
        <li><a href="openapi.json">The OpenAPI document</a> (JSON)</li>
      </ul>
      <p>
        API paths start at <code>${basePath || '/'}</code>; every request needs a bearer token from the token endpoint
        described there.
      </p>`,
  });
  app.get('/', { schema: { hide: true } }, (_request, reply) =>
    reply.headers(page.headers).type('text/html; charset=utf-8').send(page.body),
  );
}
