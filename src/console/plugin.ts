import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import session from '@fastify/session';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { html } from '../kernel/html/markup.js';
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
    // Not every error thrown in a handler has a code (a TypeError has none).
    const csrf = /^FST_CSRF_/.test(String((error as { code?: unknown }).code));
    const status = csrf ? 403 : error.validation || (error.statusCode ?? 500) < 500 ? 400 : 500;
    if (status === 500) request.log.error({ errorName: error.name, code: error.code }, 'console page failed');
    const text = csrf
      ? 'This form has expired or did not come from the console. Open the page again and repeat.'
      : status === 400
        ? 'The form holds something no field accepts. Go back and check what you typed.'
        : `Something went wrong; nothing was changed. Quote ${request.id} when you report it.`;
    return sendConsolePage(reply, request, {
      status,
      title: csrf ? 'Form refused' : status === 400 ? 'Not accepted' : 'Error',
      main: html`<h1>${csrf ? 'Form refused' : status === 400 ? 'Not accepted' : 'Error'}</h1>
        <p>${text}</p>`,
    });
  });
  app.setNotFoundHandler((request, reply) =>
    sendConsolePage(reply, request, { status: 404, title: 'Not found', main: html`<h1>Not found</h1>` }),
  );

  registerSignInPages(app, { db: context.db, clock: context.clock, operators });
  for (const pages of CONSOLE_AREAS) await app.register(pages, { context });
};
