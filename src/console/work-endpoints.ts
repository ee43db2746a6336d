import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { html } from '../kernel/html/markup.js';
import { reenableWebhookEndpoint } from '../work-queues/actions.js';
import { disabledEndpointsPage } from '../work-queues/queues.js';
import { allow, seeOther, sendConsolePage } from './kit.js';
import { actionForm, doneNotice, formField, nextPageLink, pageRequestOf, sendRefusal } from './work-kit.js';

const PATH = '/console/work/webhook-endpoints';

const WHY: Readonly<Record<string, string>> = {
  GONE: 'the receiver answered 410 Gone',
  FAILING: 'no delivery succeeded for too long',
};

/** Webhook endpoints the service disabled: re-enable one, as the partner's PATCH would (issue 31). */
export function registerEndpointPages(app: FastifyInstance, context: AppContext): void {
  app.get('/work/webhook-endpoints', { preHandler: allow('policy.read') }, async (request, reply) => {
    const page = await disabledEndpointsPage(context.db, pageRequestOf(request));
    const items = page.items.map(
      ({ endpoint: e, partner }) =>
        html`<article class="card">
          <h2>${partner ? `${partner.code} · ${partner.name}` : `Partner ${e.partnerId}`} (${e.brandCode})</h2>
          <dl class="facts">
            <dt>Endpoint</dt>
            <dd>${e.id}</dd>
            <dt>URL</dt>
            <dd>${e.url}</dd>
            <dt>Why</dt>
            <dd>${e.disabledReason ?? '—'}: ${WHY[e.disabledReason ?? ''] ?? ''}</dd>
            <dt>Disabled</dt>
            <dd><time datetime="${e.disabledAt ?? ''}">${e.disabledAt ?? '—'}</time></dd>
            ${
              e.failingSince
                ? html`<dt>Failing since</dt>
                    <dd>${e.failingSince}</dd>`
                : ''
            }
          </dl>
          ${actionForm(reply, {
            action: `${PATH}/${encodeURIComponent(e.id)}/enable`,
            id: e.id,
            button: 'Enable again',
            reasonRequired: true,
          })}
        </article>`,
    );
    return sendConsolePage(reply, request, {
      title: 'Disabled webhook endpoints',
      main: html`<h1>Disabled webhook endpoints</h1>
        ${doneNotice(request, {
          enabled:
            'The endpoint is enabled: it receives the events recorded from now on. Deliveries that failed meanwhile are in the failed deliveries queue.',
        })}
        <p>
          Endpoints the service disabled, longest disabled first. Those a partner disabled itself are the partner’s to
          enable.
        </p>
        ${items.length === 0 ? html`<p>No endpoint is disabled.</p>` : items} ${nextPageLink(PATH, page.next)}
        <p><a href="/console/work">All work queues</a></p>`,
    });
  });

  app.post<{ Params: { id: string } }>(
    '/work/webhook-endpoints/:id/enable',
    { preHandler: allow('webhook_endpoint.manage') },
    async (request, reply) => {
      try {
        await reenableWebhookEndpoint(context, request.operator, request.params.id, formField(request, 'reason'));
      } catch (error) {
        return sendRefusal(reply, request, error, { href: PATH, text: 'Back to the disabled endpoints' });
      }
      return seeOther(reply, `${PATH}?done=enabled`);
    },
  );
}
