import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import session from '@fastify/session';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { html } from '../kernel/html/markup.js';
import { DomainError } from '../kernel/errors.js';
import { statusOfDomainError } from '../http/error-handler.js';
import { CONSOLE_AREAS } from './areas.js';
import { sendConsolePage } from './kit.js';
import type { ConsoleOperators } from './operators-port.js';
import type { OperatorAction } from '../operators/model.js';
import { requireOperator } from './session-guard.js';
import { registerSignInPages } from './sign-in-pages.js';

export interface ConsoleOptions {
  readonly context: AppContext;
  readonly operators: ConsoleOperators;
  /** Filled with every console route and the action its guard asks (the security tests walk it). */
  readonly routeTable: ConsoleRoute[];
}

/** A console route: its method, path and the action its `allow` guard asks, if any. */
export interface ConsoleRoute {
  readonly method: string;
  readonly url: string;
  readonly action?: OperatorAction;
}

/** Routes an anonymous visitor may reach (the CSRF check still applies to their POST). */
const PUBLIC_PATHS = new Set(['/console/sign-in']);

/**
 * The operators' console (issue 31), mounted at /console: sessions in a signed, HttpOnly,
 * SameSite=Strict cookie (`__Host-` and Secure in production) whose data lives in the database;
 * every POST carries the session's CSRF token; every page but sign-in needs a signed-in operator
 * (console/session-guard.ts). Its errors are pages, never the partner API's JSON.
 */
export const consoleRoutes: FastifyPluginAsync<ConsoleOptions> = async (app, { context, operators, routeTable }) => {
  const settings = context.config.console;
  app.addHook('onRoute', (route) => {
    // Pages for the insurer's people: never in the partners' OpenAPI document.
    route.schema = { ...route.schema, hide: true };
    const handlers = [route.preHandler ?? []].flat() as { operatorAction?: OperatorAction }[];
    const action = handlers.find((h) => h.operatorAction !== undefined)?.operatorAction;
    for (const method of [route.method].flat())
      routeTable.push({ method, url: route.url, ...(action ? { action } : {}) });
  });
  await app.register(cookie);
  await app.register(session, {
    secret: settings.sessionSecret,
    cookieName: settings.production ? '__Host-console' : 'console',
    cookie: {
      httpOnly: true,
      sameSite: 'strict',
      secure: settings.production,
      path: settings.production ? '/' : '/console',
      maxAge: settings.sessionHours * 3_600_000,
    },
    store: operators.sessions,
    saveUninitialized: false,
    rolling: false,
  });
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) await app.register(formbody);
  // The token travels only in the form's `_csrf` field (the console has no script to set headers).
  await app.register(csrfProtection, {
    sessionPlugin: '@fastify/session',
    getToken: (request) => (request.body as { _csrf?: string } | undefined)?._csrf,
  });

  app.addHook('preHandler', async (request, reply) => {
    if (PUBLIC_PATHS.has(request.routeOptions.url ?? '')) return undefined;
    const signedIn = await requireOperator(request, reply, { operators, config: settings, clock: context.clock });
    return signedIn ? undefined : reply;
  });
  // Every POST, sign-in included (a forged sign-in would put the victim in the attacker's session).
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') done();
    else app.csrfProtection(request, reply, done);
  });

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, title, text } = consoleErrorPage(error, request.id);
    if (status >= 500) request.log.error({ errorName: error.name, code: error.code }, 'console page failed');
    return sendConsolePage(reply, request, {
      status,
      title,
      main: html`<h1>${title}</h1>
        <p>${text}</p>
        <p><a href="/console">Back to the console</a></p>`,
    });
  });
  app.setNotFoundHandler((request, reply) =>
    sendConsolePage(reply, request, { status: 404, title: 'Not found', main: html`<h1>Not found</h1>` }),
  );

  registerSignInPages(app, { db: context.db, clock: context.clock, operators });
  for (const pages of CONSOLE_AREAS) await app.register(pages, { context });
};

/**
 * What a failed console request shows: a domain refusal in its own words (a decision on a referral
 * decided meanwhile, a field out of range), a bad CSRF token, a refused field, or a failure naming
 * the request id. Never the posted values.
 */
function consoleErrorPage(error: FastifyError, requestId: string): { status: number; title: string; text: string } {
  if (error instanceof DomainError) {
    const status = statusOfDomainError(error);
    if (status < 500) return { status, title: status === 404 ? 'Not found' : 'Not done', text: error.message };
  }
  // Not every error thrown in a handler has a code (a TypeError has none).
  if (/^FST_CSRF_/.test(String((error as { code?: unknown }).code)))
    return {
      status: 403,
      title: 'Form refused',
      text: 'This form has expired or did not come from the console. Open the page again and repeat.',
    };
  if (error.validation || (error.statusCode ?? 500) < 500)
    return {
      status: 400,
      title: 'Not accepted',
      text: 'The form holds something no field accepts. Go back and check what you typed.',
    };
  return {
    status: 500,
    title: 'Error',
    text: `Something went wrong; nothing was changed. Quote ${requestId} when you report it.`,
  };
}
