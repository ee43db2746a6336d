import type { FastifyReply } from 'fastify';
import type { RenderedPage } from '../kernel/html/page.js';

/**
 * A page opened by a secret link (the customer's documents, the traveller's screening): beside the
 * page kit's own headers (CSP, no-referrer, no framing, no-store), the secret URL is never indexed.
 */
export const SECRET_LINK_HEADERS = { 'X-Robots-Tag': 'noindex, nofollow' } as const;

/** Sends a rendered page of a secret link with its status. */
export function sendSecretLinkPage(reply: FastifyReply, status: number, page: RenderedPage): FastifyReply {
  return reply
    .code(status)
    .headers({ ...page.headers, ...SECRET_LINK_HEADERS })
    .type('text/html; charset=utf-8')
    .send(page.body);
}
