import type { FastifyReply, FastifyRequest } from 'fastify';
import { policyScreeningsFor } from '../documents/live-ports.js';
import { redactCardNumbers } from '../kernel/card-numbers/card-numbers.js';
import { DomainError } from '../kernel/errors.js';
import { html, type Html } from '../kernel/html/markup.js';
import { resendDocuments } from '../work-queues/resend.js';
import { may } from '../operators/model.js';
import { policyDocument, policyOverview, type PolicyOverviewDeps } from '../policy-overview/service.js';
import { addPolicyNote } from '../policy-notes/service.js';
import { findPolicies, SEARCH_KINDS, type PolicySearch, type SearchKind } from '../policy-search/service.js';
import { allow, csrfField, seeOther, sendConsolePage, type ConsolePages } from './kit.js';
import { policySearchView, type SearchQuery } from './policy-search-view.js';
import { policyView, type NoteFormState } from './policy-view.js';

/** Console pages are no part of the partner API's OpenAPI document. */
const HIDDEN = { hide: true } as const;

interface PolicyPagePath {
  readonly policyNumber: string;
}

const pagePath = (policyNumber: string) => `/console/policies/${encodeURIComponent(policyNumber)}`;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The search a query asks for; undefined before anything was searched. */
function searchOf(query: SearchQuery): PolicySearch | undefined {
  const term = (query.q ?? '').slice(0, 200);
  if (!term.trim()) return undefined;
  const by: SearchKind = SEARCH_KINDS.find((k) => k === query.by) ?? 'policyNumber';
  switch (by) {
    case 'policyNumber':
      return { kind: by, policyNumber: term };
    case 'traveller':
      return { kind: by, surname: term, ...(query.firstName ? { firstName: query.firstName.slice(0, 200) } : {}) };
    case 'email':
      return { kind: by, email: term };
    case 'bookingReference':
      return { kind: by, bookingReference: term };
    case 'partnerCode':
      return { kind: by, partnerCode: term };
  }
}

/**
 * Operators' policy pages (issue 31): the search, a policy's page (transactions, notes, documents,
 * e-mails, events and their webhook deliveries; screening conditions for underwriters only), a
 * document opened inline, and the note form's POST.
 */
export const policyPages: ConsolePages = (app, { context }) => {
  const screenings = policyScreeningsFor(context);
  const deps: PolicyOverviewDeps = { db: context.db, screeningsOf: (quote, refs) => screenings.onPolicy(quote, refs) };

  app.get<{ Querystring: SearchQuery }>(
    '/policies',
    { schema: HIDDEN, preHandler: allow('policy.read') },
    async (request, reply) => {
      const query: SearchQuery = {
        by: text(request.query.by),
        q: text(request.query.q),
        firstName: text(request.query.firstName),
        after: text(request.query.after),
      };
      const search = searchOf(query);
      const after = Number.parseInt(query.after ?? '', 10);
      const page = search && (await findPolicies(context.db, search, Number.isSafeInteger(after) ? { after } : {}));
      return sendConsolePage(reply, request, { title: 'Policies', main: policySearchView(query, page) });
    },
  );

  const showPolicy = async (
    request: FastifyRequest,
    reply: FastifyReply,
    policyNumber: string,
    noteForm?: NoteFormState & { status: number },
  ) => {
    const overview = await policyOverview(deps, request.operator, policyNumber);
    if (!overview)
      return sendConsolePage(reply, request, {
        status: 404,
        title: 'Not found',
        main: html`<h1>Not found</h1>
          <p>No policy has the number ${policyNumber}.</p>`,
      });
    const csrf = may(request.operator, 'note.add') ? csrfField(reply) : undefined;
    const resend = may(request.operator, 'document.resend') ? resendForm(policyNumber, csrfField(reply)) : '';
    const resent = (request.query as { resent?: string }).resent === '1';
    return sendConsolePage(reply, request, {
      status: noteForm?.status ?? 200,
      title: `Policy ${policyNumber}`,
      main: html`${resent ? html`<p class="notice" role="status">The documents are on their way again.</p>` : ''}
      ${policyView(overview, { ...(csrf ? { csrf } : {}), ...(noteForm ? { noteForm } : {}) })} ${resend}`,
    });
  };

  app.get<{ Params: PolicyPagePath }>(
    '/policies/:policyNumber',
    { schema: HIDDEN, preHandler: allow('policy.read') },
    (request, reply) => showPolicy(request, reply, request.params.policyNumber),
  );

  app.get<{ Params: PolicyPagePath & { documentId: string } }>(
    '/policies/:policyNumber/documents/:documentId',
    { schema: HIDDEN, preHandler: allow('policy.read') },
    async (request, reply) => {
      const file = await policyDocument(context.db, request.params.policyNumber, request.params.documentId);
      if (!file)
        return sendConsolePage(reply, request, { status: 404, title: 'Not found', main: html`<h1>Not found</h1>` });
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `inline; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(Buffer.from(file.content));
    },
  );

  app.post<{ Params: PolicyPagePath; Body: Record<string, unknown> }>(
    '/policies/:policyNumber/notes',
    { schema: HIDDEN, preHandler: allow('note.add') },
    async (request, reply) => {
      const { policyNumber } = request.params;
      const body = request.body as Record<string, unknown> | undefined;
      const form = {
        sequenceNumber: text(body?.sequenceNumber),
        reasonId: text(body?.reasonId),
        text: text(body?.text) ?? '',
      };
      const sequence = Number.parseInt(form.sequenceNumber ?? '', 10);
      try {
        await addPolicyNote({ db: context.db, clock: context.clock }, request.operator, {
          policyNumber,
          ...(Number.isSafeInteger(sequence) ? { sequenceNumber: sequence } : {}),
          reasonId: Number.parseInt(form.reasonId ?? '', 10) || 0,
          text: form.text,
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const status = error.kind === 'not-found' ? 404 : error.kind === 'forbidden' ? 403 : 400;
        // What was typed comes back, never a card number in it (checklist 46).
        const typed = { ...form, text: redactCardNumbers(form.text) };
        return showPolicy(request, reply, policyNumber, { ...typed, problem: error.message, status });
      }
      return seeOther(reply, `${pagePath(policyNumber)}#transaction-${form.sequenceNumber ?? ''}`);
    },
  );
  app.post<{ Params: PolicyPagePath }>(
    '/policies/:policyNumber/resend',
    { preHandler: allow('document.resend') },
    async (request, reply) => {
      const { policyNumber } = request.params;
      const policy = (await policyOverview(deps, request.operator, policyNumber))?.policy;
      if (!policy)
        return sendConsolePage(reply, request, { status: 404, title: 'Not found', main: html`<h1>Not found</h1>` });
      await resendDocuments(
        { db: context.db, clock: context.clock, limits: context.config.documents.resendLimits },
        request.operator,
        { policyNumber, brandCode: policy.brandCode, partnerId: policy.partnerId },
        text((request.body as Record<string, unknown> | undefined)?.reason),
      );
      return seeOther(reply, `${pagePath(policyNumber)}?resent=1`);
    },
  );
  return Promise.resolve();
};

/** Support's button: the latest transaction's documents e-mailed again to the primary traveller. */
function resendForm(policyNumber: string, csrf: Html) {
  return html`<section aria-labelledby="resend">
    <h2 id="resend">Resend the documents</h2>
    <form method="post" action="${pagePath(policyNumber)}/resend">
      ${csrf}
      <div class="field">
        <label for="resend-reason">Reason (optional)</label>
        <input id="resend-reason" name="reason" maxlength="500" />
      </div>
      <button class="button secondary" type="submit">Resend to the primary traveller</button>
    </form>
  </section>`;
}
