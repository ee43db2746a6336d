import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { html } from '../kernel/html/markup.js';
import { retryDelivery } from '../work-queues/actions.js';
import { failedDeliveriesPage } from '../work-queues/queues.js';
import { allow, csrfField, seeOther, sendConsolePage } from './kit.js';
import { doneNotice, formField, nextPageLink, pageRequestOf, sendRefusal } from './work-kit.js';

const PATH = '/console/work/deliveries';

/** Failed e-mails and webhook deliveries: retry one (as `documents retry`) (issue 31). */
export function registerDeliveryPages(app: FastifyInstance, context: AppContext): void {
  app.get('/work/deliveries', { preHandler: allow('policy.read') }, async (request, reply) => {
    const page = await failedDeliveriesPage(context.db, pageRequestOf(request));
    const items = page.items.map(
      (d) =>
        html`<article class="card">
          <h2>${d.kind === 'E-MAIL' ? 'E-mail' : d.kind === 'WEBHOOK' ? 'Webhook delivery' : 'Event'}</h2>
          <dl class="facts">
            <dt>Key</dt>
            <dd>${d.key}</dd>
            ${
              d.endpointId === undefined
                ? ''
                : html`<dt>Endpoint</dt>
                    <dd>${d.endpointId}</dd>`
            }
            <dt>Attempts</dt>
            <dd>${d.attempts}</dd>
            <dt>Last error</dt>
            <dd>${d.lastError ?? '—'}</dd>
            <dt>Since</dt>
            <dd><time datetime="${d.since}">${d.since}</time></dd>
          </dl>
          <form method="post" action="${PATH}/retry">
            ${csrfField(reply)}
            <input type="hidden" name="key" value="${d.key}" />
            <button class="button" type="submit">Retry now</button>
          </form>
        </article>`,
    );
    return sendConsolePage(reply, request, {
      title: 'Failed deliveries',
      main: html`<h1>Failed deliveries</h1>
        ${doneNotice(request, { retried: 'Due again: the next worker pass delivers it, with every attempt again.' })}
        <p>E-mails and webhook deliveries that failed after their last attempt, oldest first.</p>
        ${items.length === 0 ? html`<p>Nothing failed.</p>` : items} ${nextPageLink(PATH, page.next)}
        <p><a href="/console/work">All work queues</a></p>`,
    });
  });

  app.post('/work/deliveries/retry', { preHandler: allow('delivery.retry') }, async (request, reply) => {
    try {
      await retryDelivery(context, request.operator, formField(request, 'key') ?? '', formField(request, 'reason'));
    } catch (error) {
      return sendRefusal(reply, request, error, { href: PATH, text: 'Back to the failed deliveries' });
    }
    return seeOther(reply, `${PATH}?done=retried`);
  });
}
