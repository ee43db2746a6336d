import { html } from '../kernel/html/markup.js';
import { workCounts } from '../work-queues/queues.js';
import { allow, sendConsolePage, type ConsolePages } from './kit.js';
import { registerAttentionPages } from './work-attention.js';
import { registerAuditPage } from './work-audit.js';
import { registerDeliveryPages } from './work-deliveries.js';
import { registerEndpointPages } from './work-endpoints.js';
import { registerPartnerPages } from './work-partners.js';

/**
 * The console's work queues (issue 31): changes in ATTENTION, failed deliveries, partners and their
 * users, disabled webhook endpoints, and the audit trail. Reads need `policy.read` (the trail
 * `audit.read`); each POST its own action; every action runs through work-queues/actions.ts.
 */
export const workQueuePages: ConsolePages = (app, { context }) => {
  app.get('/work', { preHandler: allow('policy.read') }, async (request, reply) => {
    const counts = await workCounts(context.db);
    const queues: [string, string, number][] = [
      ['/console/work/attention', 'Changes in attention', counts.attention],
      ['/console/work/deliveries', 'Failed e-mails and webhook deliveries', counts.failedDeliveries],
      ['/console/work/webhook-endpoints', 'Disabled webhook endpoints', counts.disabledEndpoints],
      ['/console/work/partners', 'Partners and their users', counts.partners],
    ];
    return sendConsolePage(reply, request, {
      title: 'Work queues',
      main: html`<h1>Work queues</h1>
        <ul class="files">
          ${queues.map(
            ([href, text, count]) => html`<li><a href="${href}">${text}</a> <span class="meta">${count}</span></li>`,
          )}
        </ul>`,
    });
  });
  registerAttentionPages(app, context);
  registerDeliveryPages(app, context);
  registerPartnerPages(app, context);
  registerEndpointPages(app, context);
  registerAuditPage(app, context);
  return Promise.resolve();
};
