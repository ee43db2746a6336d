import type { FastifyInstance } from 'fastify';
import { USER_TYPES } from '../auth/accounts.js';
import type { AppContext } from '../context.js';
import { html } from '../kernel/html/markup.js';
import { setPartnerUserActive } from '../work-queues/actions.js';
import { partnerListPage, partnerUsersPage } from '../work-queues/queues.js';
import { allow, seeOther, sendConsolePage } from './kit.js';
import { actionForm, doneNotice, formField, nextPageLink, pageRequestOf, sendRefusal } from './work-kit.js';

const PATH = '/console/work/partners';

interface PartnerParams {
  partnerId: string;
}
interface UserParams extends PartnerParams {
  userId: string;
}

/** A positive whole number from a path, else undefined (answered 404). */
const idOf = (text: string): number | undefined => (/^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined);

/** Partners and their users: disable a user, enable one again (issue 31). */
export function registerPartnerPages(app: FastifyInstance, context: AppContext): void {
  app.get('/work/partners', { preHandler: allow('policy.read') }, async (request, reply) => {
    const page = await partnerListPage(context.db, pageRequestOf(request));
    const rows = page.items.map(
      (p) =>
        html`<li>
          <a href="${PATH}/${p.id}">${p.code}</a> ${p.name}
          <span class="meta"
            >${p.statusCode} · ${p.users}
            user${p.users === 1 ? '' : 's'}${p.disabledUsers > 0 ? `, ${p.disabledUsers} disabled` : ''}</span
          >
        </li>`,
    );
    return sendConsolePage(reply, request, {
      title: 'Partners',
      main: html`<h1>Partners</h1>
        ${
          rows.length === 0
            ? html`<p>No partners.</p>`
            : html`<ul class="files">
                ${rows}
              </ul>`
        }
        ${nextPageLink(PATH, page.next)}
        <p><a href="/console/work">All work queues</a></p>`,
    });
  });

  app.get<{ Params: PartnerParams }>(
    '/work/partners/:partnerId',
    { preHandler: allow('policy.read') },
    async (request, reply) => {
      const partnerId = idOf(request.params.partnerId);
      const found = partnerId && (await partnerUsersPage(context.db, partnerId, pageRequestOf(request)));
      if (!found) return reply.callNotFound();
      const { partner, users } = found;
      const path = `${PATH}/${partner.id}`;
      const items = users.items.map(
        (u) =>
          html`<article class="card">
            <h2>${u.login}</h2>
            <dl class="facts">
              <dt>State</dt>
              <dd>
                ${
                  u.active
                    ? html`<span class="status status-active">Enabled</span>`
                    : html`<span class="status status-cancelled">Disabled</span> since
                        <time datetime="${u.deactivatedAt ?? ''}">${u.deactivatedAt ?? '—'}</time>`
                }
              </dd>
              <dt>Type</dt>
              <dd>${USER_TYPES[u.userTypeId] ?? String(u.userTypeId)}</dd>
              <dt>Created</dt>
              <dd>${u.createdAt}</dd>
              <dt>Last token</dt>
              <dd>${u.lastTokenAt ? html`<time datetime="${u.lastTokenAt}">${u.lastTokenAt}</time>` : 'never'}</dd>
            </dl>
            ${actionForm(reply, {
              action: `${path}/users/${u.id}/${u.active ? 'disable' : 'enable'}`,
              id: String(u.id),
              button: u.active ? 'Disable (revokes its sessions)' : 'Enable again',
              reasonRequired: true,
            })}
          </article>`,
      );
      return sendConsolePage(reply, request, {
        title: `Partner ${partner.code}`,
        main: html`<h1>${partner.code} · ${partner.name}</h1>
          ${doneNotice(request, {
            disabled: 'The user is disabled: no new tokens, its sessions revoked.',
            enabled: 'The user is enabled: it may sign in again; earlier sessions stay revoked.',
          })}
          <p>Status ${partner.statusCode}. Users by login.</p>
          ${items.length === 0 ? html`<p>No users.</p>` : items} ${nextPageLink(path, users.next)}
          <p><a href="${PATH}">All partners</a></p>`,
      });
    },
  );

  for (const [verb, active] of [
    ['disable', false],
    ['enable', true],
  ] as const)
    app.post<{ Params: UserParams }>(
      `/work/partners/:partnerId/users/:userId/${verb}`,
      { preHandler: allow('partner_user.manage') },
      async (request, reply) => {
        const back = `${PATH}/${encodeURIComponent(request.params.partnerId)}`;
        const userId = idOf(request.params.userId);
        if (userId === undefined) return reply.callNotFound();
        try {
          await setPartnerUserActive(context, request.operator, userId, active, formField(request, 'reason'));
        } catch (error) {
          return sendRefusal(reply, request, error, { href: back, text: 'Back to the partner' });
        }
        return seeOther(reply, `${back}?done=${verb}d`);
      },
    );
}
