import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.js';
import { findKeptAttachment, findKeptMail, listKeptMail } from '../repository.js';
import { NOT_FOUND_PAGE, mailListPage, mailPage } from './pages.js';

export interface SandboxMailRoutesOptions {
  readonly context: AppContext;
}

/** The newest e-mails the list shows. */
const LIST_LIMIT = 200;

const MailParams = Type.Object({ mailId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
const AttachmentParams = Type.Object({
  mailId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  position: Type.Integer({ minimum: 1, maximum: 1000 }),
});

/** The mailbox's own pages: nothing from elsewhere, and only its own e-mails' HTML framed. */
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; frame-ancestors 'none'";

/**
 * An e-mail's HTML part, which partner text reached: no script, no fetch, no form, sandboxed
 * even when opened on its own (`sandbox`), framed only by the mailbox's page.
 */
const MAIL_HTML_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox";

/** HTML for a browser: never cached, never scripted, no images or styles from elsewhere. */
function sendHtml(reply: FastifyReply, html: string, status = 200, policy = PAGE_POLICY): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', policy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}

/** `"` and control characters cannot end the header's quoted filename. */
// eslint-disable-next-line no-control-regex
const safeFilename = (name: string) => name.replace(/[\u0000-\u001f\u007f"\\]/g, '_');

/**
 * The staging sandbox mailbox: e-mails kept instead of sent (no SMTP_URL), for a person testing an
 * integration. Public like the sandbox 3-D Secure pages, never registered in production, hidden
 * from the partner OpenAPI document.
 */
export const sandboxMailRoutes: FastifyPluginAsyncTypebox<SandboxMailRoutesOptions> = (api, { context }) => {
  const base = '/sandbox/mail';
  const common = { hide: true, tags: ['sandbox'] };

  api.get(
    base,
    { schema: { ...common, operationId: 'sandboxMailList', summary: 'Sandbox mailbox: kept e-mails' } },
    async (_request, reply) => sendHtml(reply, mailListPage(await listKeptMail(context.db, LIST_LIMIT), base)),
  );

  api.get(
    `${base}/:mailId`,
    {
      schema: { ...common, params: MailParams, operationId: 'sandboxMailOne', summary: 'Sandbox mailbox: one e-mail' },
    },
    async (request, reply) => {
      const mail = await findKeptMail(context.db, request.params.mailId);
      return mail ? sendHtml(reply, mailPage(mail, base)) : sendHtml(reply, NOT_FOUND_PAGE, 404);
    },
  );

  api.get(
    `${base}/:mailId/html`,
    {
      schema: {
        ...common,
        params: MailParams,
        operationId: 'sandboxMailHtml',
        summary: 'Sandbox mailbox: the HTML part of one e-mail',
      },
    },
    async (request, reply) => {
      const mail = await findKeptMail(context.db, request.params.mailId);
      if (!mail?.html) return sendHtml(reply, NOT_FOUND_PAGE, 404);
      return sendHtml(reply.header('x-frame-options', 'SAMEORIGIN'), mail.html, 200, MAIL_HTML_POLICY);
    },
  );

  api.get(
    `${base}/:mailId/attachments/:position`,
    {
      schema: {
        ...common,
        params: AttachmentParams,
        operationId: 'sandboxMailAttachment',
        summary: 'Sandbox mailbox: download an attachment',
      },
    },
    async (request, reply) => {
      const file = await findKeptAttachment(context.db, request.params.mailId, request.params.position);
      if (!file) return sendHtml(reply, NOT_FOUND_PAGE, 404);
      return reply
        .type(file.contentType === 'application/pdf' ? 'application/pdf' : 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${safeFilename(file.filename)}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(file.content));
    },
  );
  return Promise.resolve();
};
