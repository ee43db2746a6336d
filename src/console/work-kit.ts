import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactCardNumbers } from '../kernel/card-numbers/card-numbers.js';
import { DomainError } from '../kernel/errors.js';
import { html, type Html } from '../kernel/html/markup.js';
import { decodeAfter, encodeAfter, MAX_PAGE_SIZE, type After } from '../kernel/keyset.js';
import { minorDigits, toMajor } from '../kernel/money/units.js';
import { MAX_REASON_LENGTH } from '../work-queues/reasons.js';
import { csrfField, sendConsolePage } from './kit.js';

/** What the work queues' pages share: paging links, the reason form, refusals as pages. */

export const PAGE_SIZE = 25;

/** A list's page from the query string (`?after=…&limit=…`); a malformed one starts at the top. */
export function pageRequestOf(request: FastifyRequest): { limit: number; after?: After } {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const after = typeof query.after === 'string' ? decodeAfter(query.after) : undefined;
  const asked = typeof query.limit === 'string' ? Number(query.limit) : PAGE_SIZE;
  const limit = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, MAX_PAGE_SIZE) : PAGE_SIZE;
  return after ? { limit, after } : { limit };
}

/** The link to the next page, if there is one. */
export function nextPageLink(path: string, next: After | undefined): Html {
  if (!next) return html``;
  return html`<p><a href="${path}?${new URLSearchParams({ after: encodeAfter(next) }).toString()}">Next page</a></p>`;
}

/** A form field of a POST body (forms arrive as objects of strings). */
export function formField(request: FastifyRequest, name: string): string | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** A form posting one action, with the reason field (required or not) and its button. */
export function actionForm(
  reply: FastifyReply,
  input: { action: string; id: string; button: string; reasonRequired: boolean },
): Html {
  const field = `reason-${input.id}`;
  return html`<form method="post" action="${input.action}">
    ${csrfField(reply)}
    <div class="field">
      <label for="${field}">Reason${input.reasonRequired ? '' : ' (optional)'}</label>
      <input
        id="${field}"
        name="reason"
        type="text"
        maxlength="${MAX_REASON_LENGTH}"
        autocomplete="off"
        ${input.reasonRequired ? html`required` : ''}
      />
    </div>
    <button class="button" type="submit">${input.button}</button>
  </form>`;
}

const STATUS_OF: Readonly<Record<string, number>> = {
  'invalid-input': 400,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
};

/**
 * A service's refusal (a domain error) as a console page with its status and a link back; any
 * other error goes on to the console's error handler (a 500 page that says nothing was changed).
 */
export async function sendRefusal(
  reply: FastifyReply,
  request: FastifyRequest,
  error: unknown,
  back: { href: string; text: string },
): Promise<FastifyReply> {
  if (!(error instanceof DomainError) || STATUS_OF[error.kind] === undefined) throw error;
  return sendConsolePage(reply, request, {
    status: STATUS_OF[error.kind],
    title: 'Not done',
    main: html`<h1>Not done</h1>
      <p class="notice">${redactCardNumbers(error.message)}</p>
      <p><a href="${back.href}">${back.text}</a></p>`,
  });
}

/** An amount in minor units as `12.34 AUD`. */
export function moneyText(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return `${toMajor(minor, digits).toFixed(digits)} ${currency}`;
}

/** The banner a page shows after its POST redirected back (`?done=…`). */
export function doneNotice(request: FastifyRequest, texts: Readonly<Record<string, string>>): Html {
  const done = (request.query as Record<string, unknown> | undefined)?.done;
  const text = typeof done === 'string' ? texts[done] : undefined;
  return text ? html`<p class="card" role="status">${text}</p>` : html``;
}
