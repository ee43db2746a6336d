import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { html } from '../kernel/html/markup.js';
import { resolveChange } from '../work-queues/actions.js';
import { attentionPage } from '../work-queues/queues.js';
import { allow, seeOther, sendConsolePage } from './kit.js';
import { actionForm, doneNotice, formField, moneyText, nextPageLink, pageRequestOf, sendRefusal } from './work-kit.js';

const PATH = '/console/work/attention';

/** Changes in ATTENTION: what was refunded and what is owed; resolve with a reason (issue 31). */
export function registerAttentionPages(app: FastifyInstance, context: AppContext): void {
  app.get('/work/attention', { preHandler: allow('policy.read') }, async (request, reply) => {
    const page = await attentionPage(context.db, pageRequestOf(request));
    const items = page.items.map(
      (c) =>
        html`<article class="card">
          <h2>${c.policyNumber} · ${c.kind}</h2>
          <dl class="facts">
            <dt>Change</dt>
            <dd>${c.id}</dd>
            <dt>Brand</dt>
            <dd>${c.brandCode}</dd>
            <dt>Amount</dt>
            <dd>${moneyText(c.amountMinor, c.currency)}</dd>
            <dt>Refunded</dt>
            <dd>
              ${moneyText(c.refundedMinor, c.currency)}${
                c.refundedTo.length > 0
                  ? html` (to
                    ${c.refundedTo.map((l) => `${l.paymentId} ${moneyText(l.amountMinor, c.currency)}`).join(', ')})`
                  : ''
              }
            </dd>
            <dt>Still owed</dt>
            <dd>${moneyText(c.outstandingMinor, c.currency)}</dd>
            <dt>Transaction</dt>
            <dd>${c.bookedSequence === undefined ? 'not written' : `written (sequence ${c.bookedSequence})`}</dd>
            <dt>Stopped by</dt>
            <dd>${c.reason ?? '—'}</dd>
            <dt>Since</dt>
            <dd><time datetime="${c.since}">${c.since}</time></dd>
          </dl>
          ${actionForm(reply, {
            action: `${PATH}/${encodeURIComponent(c.id)}/resolve`,
            id: c.id,
            button: 'Resolve (the money is settled)',
            reasonRequired: true,
          })}
        </article>`,
    );
    return sendConsolePage(reply, request, {
      title: 'Changes in attention',
      main: html`<h1>Changes in attention</h1>
        ${doneNotice(request, { resolved: 'The change is resolved; the policy may be changed again.' })}
        <p>Longest waiting first. Resolve a change once its money has been put right outside the API.</p>
        ${items.length === 0 ? html`<p>No change waits for an operator.</p>` : items} ${nextPageLink(PATH, page.next)}
        <p><a href="/console/work">All work queues</a></p>`,
    });
  });

  app.post<{ Params: { id: string } }>(
    '/work/attention/:id/resolve',
    { preHandler: allow('change.resolve') },
    async (request, reply) => {
      try {
        await resolveChange(context, request.operator, request.params.id, formField(request, 'reason'));
      } catch (error) {
        return sendRefusal(reply, request, error, { href: PATH, text: 'Back to the changes in attention' });
      }
      return seeOther(reply, `${PATH}?done=resolved`);
    },
  );
}
