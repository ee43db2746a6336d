import { html, type Html } from '../kernel/html/markup.js';
import type { PolicySearchPage, SearchKind } from '../policy-search/service.js';
import { SEARCH_KINDS } from '../policy-search/service.js';
import { localTime } from './policy-view-format.js';

/** The search form's fields, as a GET query (a search is a link). */
export interface SearchQuery {
  readonly by?: string;
  readonly q?: string;
  readonly firstName?: string;
  readonly after?: string;
}

const LABELS: Record<SearchKind, string> = {
  policyNumber: 'Policy number (exact)',
  traveller: 'Traveller surname (starts with)',
  email: 'Traveller e-mail (exact)',
  bookingReference: 'Booking reference (exact)',
  partnerCode: 'Partner code',
};

const link = (query: SearchQuery, after: number) => {
  const params = new URLSearchParams();
  for (const name of ['by', 'q', 'firstName'] as const) {
    const value = query[name];
    if (value) params.set(name, value);
  }
  params.set('after', String(after));
  return `/console/policies?${params.toString()}`;
};

function resultsOf(query: SearchQuery, page: PolicySearchPage): Html {
  if (page.hits.length === 0) return html`<p role="status">No policy matches.</p>`;
  return html`<div class="scroll" tabindex="0">
      <table>
        <caption>
          Policies found, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Policy number</th>
            <th scope="col">Primary traveller</th>
            <th scope="col">Partner</th>
            <th scope="col">Brand</th>
            <th scope="col">Booking reference</th>
            <th scope="col">Status</th>
            <th scope="col">Issued (UTC)</th>
          </tr>
        </thead>
        <tbody>
          ${page.hits.map(
            (hit) =>
              html`<tr>
                <th scope="row">
                  <a href="/console/policies/${encodeURIComponent(hit.policyNumber)}">${hit.policyNumber}</a>
                </th>
                <td>${hit.primaryTraveller}</td>
                <td>${hit.partnerCode}</td>
                <td>${hit.brandCode}</td>
                <td>${hit.bookingReference ?? '—'}</td>
                <td>${hit.status}</td>
                <td>${localTime(hit.issuedAt, 'UTC')}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${page.next === undefined ? '' : html`<p><a href="${link(query, page.next)}" rel="next">Next page</a></p>`}`;
}

/** The policy search page: the form (GET) and, after a search, its results. */
export function policySearchView(query: SearchQuery, page: PolicySearchPage | undefined): Html {
  const by = SEARCH_KINDS.find((k) => k === query.by) ?? 'policyNumber';
  return html`<h1>Policies</h1>
    <form method="get" action="/console/policies" role="search" aria-label="Policies">
      <div class="field">
        <label for="by">Search by</label>
        <select id="by" name="by">
          ${SEARCH_KINDS.map(
            (kind) => html`<option value="${kind}" ${kind === by ? html`selected` : ''}>${LABELS[kind]}</option>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="q">Search for</label>
        <input id="q" name="q" value="${query.q ?? ''}" maxlength="200" required />
      </div>
      <div class="field">
        <label for="firstName">First name (starts with; traveller searches only)</label>
        <input id="firstName" name="firstName" value="${query.firstName ?? ''}" maxlength="200" />
      </div>
      <button class="button" type="submit">Search</button>
    </form>
    ${
      page
        ? html`<section aria-labelledby="results">
            <h2 id="results">Results</h2>
            ${resultsOf(query, page)}
          </section>`
        : ''
    }`;
}
