import type { FastifyReply, FastifyRequest } from 'fastify';
import { BRAND_CODES } from '../kernel/brands.js';
import { catalogueOf } from '../catalogue/service.js';
import { html } from '../kernel/html/markup.js';
import { actionsOnSubject } from '../operators/audit-repository.js';
import { may } from '../operators/model.js';
import { quotePortsFor, screeningsFor } from '../quotes/live-ports.js';
import { amendmentFactsFor } from '../policy-changes/referrals.js';
import { approveReferral, declineReferral, requestInformation, type DecisionDeps } from '../referrals/decisions.js';
import { isOpen } from '../referrals/model.js';
import { referralDetail, referralQueue } from '../referrals/queue.js';
import type { ConditionAssessment } from '../screening/model.js';
import { allow, csrfField, seeOther, sendConsolePage, type ConsolePages } from './kit.js';
import {
  amendmentFacts,
  historyView,
  money,
  queueView,
  quoteFacts,
  rulesView,
  screeningView,
  type QueueQuery,
} from './referral-views.js';

const PAGE = 50;

type Form = Record<string, string | undefined>;
const formOf = (request: FastifyRequest): Form => (request.body ?? {}) as Form;
/** A number typed in a form ('' is 0); anything else is NaN, which the service refuses by name. */
const numberOf = (value: string | undefined): number =>
  value === undefined || value.trim() === '' ? 0 : Number(value);

function queueQueryOf(query: Form): QueueQuery {
  const hours = query.olderThanHours?.trim();
  const offset = Number(query.offset ?? '0');
  return {
    ...(query.brand ? { brand: query.brand } : {}),
    ...(query.reason ? { reason: query.reason.trim().toUpperCase() } : {}),
    ...(hours ? { olderThanHours: Number(hours) } : {}),
    offset: Number.isSafeInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The referral queue and a referral's page, where underwriters approve, decline or ask (issue 31). */
export const referralPages: ConsolePages = (app, { context }) => {
  const deps: DecisionDeps = {
    db: context.db,
    clock: context.clock,
    catalogue: catalogueOf(context),
    quotePorts: quotePortsFor(context),
    amendments: amendmentFactsFor(context.db),
  };
  const screenings = screeningsFor(context);

  app.get('/referrals', { preHandler: allow('referral.read') }, async (request, reply) => {
    const query = queueQueryOf(request.query as Form);
    const found = await referralQueue(
      deps,
      {
        ...(query.brand ? { brandCode: query.brand } : {}),
        ...(query.reason ? { reasonCode: query.reason } : {}),
        ...(query.olderThanHours !== undefined ? { olderThanHours: query.olderThanHours } : {}),
      },
      { limit: PAGE + 1, offset: query.offset },
    );
    return sendConsolePage(reply, request, {
      title: 'Referral queue',
      main: queueView(found.slice(0, PAGE), query, BRAND_CODES, context.clock(), found.length > PAGE),
    });
  });

  app.get('/referrals/:id', { preHandler: allow('referral.read') }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const detail = await referralDetail({ ...deps, screenings }, id);
    const { referral, authority } = detail;
    // Health data: the conditions are read (and unsealed) only for a role that may see them.
    const conditions = may(request.operator, 'screening.conditions.read')
      ? new Map<string, readonly ConditionAssessment[]>(
          (detail.quote ? await screenings.ofQuote(detail.quote.id, undefined) : []).map((s) => [
            s.travellerGuid,
            s.assessment?.conditions ?? [],
          ]),
        )
      : undefined;
    const decides = isOpen(referral.status) && may(request.operator, 'referral.decide');
    return sendConsolePage(reply, request, {
      title: `Referral ${referral.id}`,
      main: html`<h1>Referral</h1>
        <p><span class="status">${referral.status}</span> since ${referral.decidedAt ?? referral.referredAt}</p>
        ${
          referral.pendingApproval
            ? html`<p class="notice">
                First approval given by operator ${String(referral.pendingApproval.operatorId)} (loading
                ${String(referral.pendingApproval.loadingPercentage)} %, extra excess
                ${money(referral.pendingApproval.extraExcessMinor, authority.currency)}): a second senior underwriter
                approves the same terms.
              </p>`
            : ''
        }
        ${
          detail.amendment
            ? html`<h2>Amendment of ${detail.amendment.policyNumber}</h2>
                ${amendmentFacts(detail)}
                <p>An amendment is approved as previewed: no loading and no extra excess.</p>`
            : html`<h2>The quote</h2>
                ${quoteFacts(detail)}`
        }
        <h2>Why it was referred</h2>
        ${rulesView(detail.rules, referral.reasonCodes, authority.currency)}
        ${
          detail.quote
            ? html`<h2>Medical screening</h2>
                ${screeningView(detail, conditions)}`
            : ''
        }
        ${
          referral.informationRequested
            ? html`<h2>Information requested</h2>
                <p>${referral.informationRequested}</p>`
            : ''
        }
        ${
          referral.declineReason
            ? html`<h2>Declined because</h2>
                <p>${referral.declineReason}</p>`
            : ''
        }
        ${decides ? decisionForms(reply, referral.id) : ''}
        <h2>History</h2>
        ${historyView(await actionsOnSubject(context.db, 'referral', referral.id))}`,
    });
  });

  app.post('/referrals/:id/approve', { preHandler: allow('referral.decide') }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const form = formOf(request);
    await approveReferral(deps, request.operator, id, {
      loadingPercentage: numberOf(form.loadingPercentage),
      extraExcess: numberOf(form.extraExcess),
      reason: form.reason ?? '',
    });
    return seeOther(reply, `/console/referrals/${id}`);
  });

  app.post('/referrals/:id/decline', { preHandler: allow('referral.decide') }, async (request, reply) => {
    const { id } = request.params as { id: string };
    await declineReferral(deps, request.operator, id, { reason: formOf(request).reason ?? '' });
    return seeOther(reply, `/console/referrals/${id}`);
  });

  app.post('/referrals/:id/request-information', { preHandler: allow('referral.decide') }, async (request, reply) => {
    const { id } = request.params as { id: string };
    await requestInformation(deps, request.operator, id, { question: formOf(request).question ?? '' });
    return seeOther(reply, `/console/referrals/${id}`);
  });
  return Promise.resolve();
};

function decisionForms(reply: FastifyReply, id: string) {
  return html`<h2>Decide</h2>
    <form method="post" action="/console/referrals/${id}/approve" class="card">
      ${csrfField(reply)}
      <h3>Approve</h3>
      <div class="field">
        <label for="loadingPercentage">Loading (% of the plan's premium)</label>
        <input id="loadingPercentage" name="loadingPercentage" inputmode="decimal" value="0" />
      </div>
      <div class="field">
        <label for="extraExcess">Extra excess</label>
        <input id="extraExcess" name="extraExcess" inputmode="decimal" value="0" />
      </div>
      <div class="field">
        <label for="approve-reason">Reason</label>
        <input id="approve-reason" name="reason" required maxlength="1000" />
      </div>
      <button class="button" type="submit">Approve</button>
    </form>
    <form method="post" action="/console/referrals/${id}/decline" class="card">
      ${csrfField(reply)}
      <h3>Decline</h3>
      <div class="field">
        <label for="decline-reason">Reason</label>
        <input id="decline-reason" name="reason" required maxlength="1000" />
      </div>
      <button class="button secondary" type="submit">Decline</button>
    </form>
    <form method="post" action="/console/referrals/${id}/request-information" class="card">
      ${csrfField(reply)}
      <h3>Ask for information</h3>
      <div class="field">
        <label for="question">What the partner must tell us</label>
        <input id="question" name="question" required maxlength="1000" />
      </div>
      <button class="button secondary" type="submit">Ask</button>
    </form>`;
}
