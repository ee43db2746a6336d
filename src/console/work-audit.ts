import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { html } from '../kernel/html/markup.js';
import { auditPage } from '../work-queues/queues.js';
import { allow, sendConsolePage } from './kit.js';
import { nextPageLink, pageRequestOf } from './work-kit.js';

const PATH = '/console/audit';

const json = (value: unknown): string => (value === undefined ? '—' : JSON.stringify(value));

/** The operators' audit trail, newest first: who, when, what, on what, before/after, why (issue 31). */
export function registerAuditPage(app: FastifyInstance, context: AppContext): void {
  app.get('/audit', { preHandler: allow('audit.read') }, async (request, reply) => {
    const { limit, after } = pageRequestOf(request);
    const beforeId = after && /^\d{1,15}$/.test(after.id) ? Number(after.id) : undefined;
    const { entries: page, who } = await auditPage(
      context.db,
      beforeId === undefined ? { limit } : { limit, beforeId },
    );
    const items = page.items.map(
      (e) =>
        html`<article class="card">
          <h2>${e.action}</h2>
          <dl class="facts">
            <dt>Who</dt>
            <dd>${who.get(e.operatorId) ?? `operator ${e.operatorId}`}</dd>
            <dt>When</dt>
            <dd><time datetime="${e.at}">${e.at}</time></dd>
            <dt>Subject</dt>
            <dd>${e.subjectType} ${e.subjectId}</dd>
            <dt>Before</dt>
            <dd><code>${json(e.before)}</code></dd>
            <dt>After</dt>
            <dd><code>${json(e.after)}</code></dd>
            <dt>Reason</dt>
            <dd>${e.reason ?? '—'}</dd>
          </dl>
        </article>`,
    );
    return sendConsolePage(reply, request, {
      title: 'Audit trail',
      main: html`<h1>Audit trail</h1>
        <p>Every operator action, newest first. Entries are never changed or removed.</p>
        ${items.length === 0 ? html`<p>No actions yet.</p>` : items} ${nextPageLink(PATH, page.next)}`,
    });
  });
}
