import type {} from '@fastify/csrf-protection';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { html, type Html } from '../kernel/html/markup.js';
import { renderPage } from '../kernel/html/page.js';
import { may, type Operator, type OperatorAction } from '../operators/model.js';

/**
 * What every console page plugin uses (issue 31). The console (console/plugin.ts) mounts page
 * plugins under `/console` after its session guard: in a page's handler `request.operator` is the
 * signed-in operator, every POST has already passed the CSRF check, and forms arrive as
 * `application/x-www-form-urlencoded` objects of strings. Pages are server-rendered HTML with no
 * script, one column that fits a phone, brand-neutral.
 */
export interface ConsolePageOptions {
  readonly context: AppContext;
}
export type ConsolePages = FastifyPluginAsync<ConsolePageOptions>;

/** The console's own look: no brand (operators work for every brand). */
export const CONSOLE_LOOK = { name: 'Operators’ console', colour: '#2f4858' } as const;

/** The console's prefix; page plugins register their paths under it. */
export const CONSOLE_PREFIX = '/console';

/** A route's preHandler made by `allow`: it names its action, so tests can list every route's. */
export type ActionGuard = ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) & {
  readonly operatorAction: OperatorAction;
};

/** A route's preHandler: the signed-in operator's role must allow the action, else 403 (a page). */
export function allow(action: OperatorAction): ActionGuard {
  const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!may(request.operator, action)) {
      await sendConsolePage(reply, request, {
        status: 403,
        title: 'Not allowed',
        main: html`<h1>Not allowed</h1>
          <p>Your role (${request.operator.role}) may not do this.</p>`,
      });
    }
  };
  return Object.assign(guard, { operatorAction: action });
}

export interface ConsolePageInput {
  readonly title: string;
  readonly main: Html;
  readonly status?: number;
}

/** The navigation every console page carries, showing only what the operator's role may open. */
function navigation(operator: Operator): Html {
  const links: [string, string, OperatorAction][] = [
    ['/console/referrals', 'Referrals', 'referral.read'],
    ['/console/policies', 'Policies', 'policy.read'],
    ['/console/work', 'Work queues', 'policy.read'],
    ['/console/audit', 'Audit trail', 'audit.read'],
  ];
  return html`<nav aria-label="Console">
    <ul class="languages">
      ${links.filter(([, , action]) => may(operator, action)).map(([href, text]) => html`<li><a href="${href}">${text}</a></li>`)}
      <li><a href="/console/account">${operator.displayName} (${operator.role})</a></li>
    </ul>
  </nav>`;
}

/** Sends a console page: the page kit's headers (CSP with no script, no framing, no-store). */
export async function sendConsolePage(
  reply: FastifyReply,
  request: FastifyRequest,
  input: ConsolePageInput,
): Promise<FastifyReply> {
  const operator = request.operator as Operator | undefined;
  const page = renderPage({
    lang: 'en',
    title: input.title,
    look: CONSOLE_LOOK,
    main: html`${operator ? navigation(operator) : ''}${input.main}`,
    postsForm: true,
  });
  return reply
    .code(input.status ?? 200)
    .headers(page.headers)
    .type('text/html; charset=utf-8')
    .send(page.body);
}

/** The hidden CSRF field every console form carries (checked by the console before any POST handler). */
export function csrfField(reply: FastifyReply): Html {
  return html`<input type="hidden" name="_csrf" value="${reply.generateCsrf()}" />`;
}

/** After a successful POST: 303 to a page (post/redirect/get), so a reload repeats nothing. */
export function seeOther(reply: FastifyReply, path: string): FastifyReply {
  return reply.code(303).header('Location', path).send();
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator on every console page route (set by the console's session guard). */
    operator: Operator;
  }
}
