import { html, type Html } from '../kernel/html/markup.js';
import type { ReferralRule } from '../catalogue/referrals.js';
import type { OperatorActionEntry } from '../operators/audit-repository.js';
import type { Referral } from '../referrals/model.js';
import type { ReferralDetail } from '../referrals/queue.js';
import type { ConditionAssessment } from '../screening/model.js';
import { toMajor, minorDigits } from '../kernel/money/units.js';

/** A referral queue's filters as the form and the links carry them. */
export interface QueueQuery {
  readonly brand?: string;
  readonly reason?: string;
  readonly olderThanHours?: number;
  readonly offset: number;
}

export const money = (minor: number, currency: string): string =>
  `${toMajor(minor, minorDigits(currency)).toFixed(minorDigits(currency))} ${currency}`;

/** How long ago, in hours or days, as an underwriter reads a queue. */
export function age(since: string, now: Date): string {
  const hours = Math.max(0, (now.getTime() - Date.parse(since)) / 3_600_000);
  return hours < 48 ? `${Math.floor(hours)} h` : `${Math.floor(hours / 24)} days`;
}

export function queueView(
  referrals: readonly Referral[],
  query: QueueQuery,
  brands: readonly string[],
  now: Date,
  hasMore: boolean,
): Html {
  const link = (offset: number) =>
    `/console/referrals?${new URLSearchParams({
      ...(query.brand ? { brand: query.brand } : {}),
      ...(query.reason ? { reason: query.reason } : {}),
      ...(query.olderThanHours !== undefined ? { olderThanHours: String(query.olderThanHours) } : {}),
      offset: String(offset),
    }).toString()}`;
  return html`<h1>Referral queue</h1>
    <form method="get" action="/console/referrals">
      <fieldset>
        <legend>Filter</legend>
        <div class="field">
          <label for="brand">Brand</label>
          <select id="brand" name="brand">
            <option value="">Every brand</option>
            ${brands.map((b) => html`<option value="${b}" ${b === query.brand ? 'selected' : ''}>${b}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="reason">Reason code</label>
          <input id="reason" name="reason" value="${query.reason ?? ''}" />
        </div>
        <div class="field">
          <label for="olderThanHours">Waiting longer than (hours)</label>
          <input
            id="olderThanHours"
            name="olderThanHours"
            inputmode="numeric"
            value="${query.olderThanHours === undefined ? '' : String(query.olderThanHours)}"
          />
        </div>
        <button class="button" type="submit">Show</button>
      </fieldset>
    </form>
    ${
      referrals.length === 0
        ? html`<p>
            No referral
            waits${query.brand || query.reason || query.olderThanHours !== undefined ? ' with these filters' : ''}.
          </p>`
        : html`<div class="scroll" tabindex="0">
            <table>
              <caption>
                Oldest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Waiting</th>
                  <th scope="col">Brand</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Reasons</th>
                  <th scope="col">Status</th>
                  <th scope="col">Referral</th>
                </tr>
              </thead>
              <tbody>
                ${referrals.map(
                  (r) =>
                    html`<tr>
                      <td>${age(r.referredAt, now)}</td>
                      <td>${r.brandCode}</td>
                      <td>${r.policyNumber === undefined ? 'Quote' : `Amendment of ${r.policyNumber}`}</td>
                      <td>${r.reasonCodes.join(', ')}</td>
                      <td>${r.status}${r.pendingApproval ? ' (first approval given)' : ''}</td>
                      <td><a href="/console/referrals/${r.id}">Open</a></td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    <p>
      ${query.offset > 0 ? html`<a href="${link(Math.max(0, query.offset - 50))}">Previous</a> ` : ''}
      ${hasMore ? html`<a href="${link(query.offset + 50)}">Next</a>` : ''}
    </p>`;
}

function ruleText(rule: ReferralRule, currency: string): string {
  switch (rule.kind) {
    case 'TRIP_VALUE_PER_TRAVELLER':
      return `trip value per traveller above ${money(rule.aboveMinor, currency)}`;
    case 'TRAVELLER_AGE':
      return `a traveller older than ${String(rule.aboveYears)}`;
    case 'SCREENING_REFERRED':
      return 'a medical screening referred to an underwriter';
    case 'DUPLICATE_POLICY':
      return 'a policy for the same traveller and dates exists';
    case 'DESTINATION_WATCH_LIST':
      return `a destination on the watch list (${rule.destinations.join(', ')})`;
  }
}

/** Who may decide at the premium judged. */
function whoDecides(authority: ReferralDetail['authority']): string {
  if (authority.needsSecondApproval) return 'two senior underwriters (above the second-approval threshold)';
  return authority.needsSenior ? 'a senior underwriter (above the underwriter limit)' : 'an underwriter';
}

/** Who the quote covers, where and when, and what it costs. */
export function quoteFacts(detail: ReferralDetail): Html | '' {
  const { quote, authority } = detail;
  if (!quote) return '';
  const input = quote.input;
  const travellers = input.policyHolders ?? [];
  return html`<dl class="facts">
    <dt>Quote</dt>
    <dd>${quote.id}</dd>
    <dt>Brand</dt>
    <dd>${quote.brandCode} (partner ${quote.partnerCode})</dd>
    <dt>Trip</dt>
    <dd>
      ${input.departureDate ?? '?'} to ${input.returnDate ?? '?'}, ${(input.destinationCountryCodes ?? []).join(', ')}
    </dd>
    <dt>Plan</dt>
    <dd>${String(input.planId ?? '')}</dd>
    <dt>Travellers</dt>
    <dd>
      ${travellers.map(
        (h, i) =>
          html`${i > 0 ? ', ' : ''}${h.firstName ?? ''}
          ${h.lastName ?? ''}${h.age === undefined ? '' : ` (${String(h.age)})`}`,
      )}
    </dd>
    <dt>Premium judged</dt>
    <dd>${money(authority.premiumMinor, authority.currency)}</dd>
    <dt>Who decides</dt>
    <dd>${whoDecides(authority)}</dd>
  </dl>`;
}

/** A referred amendment: what it changes and what it charges or refunds. */
export function amendmentFacts(detail: ReferralDetail): Html | '' {
  const { amendment, authority } = detail;
  if (!amendment) return '';
  return html`<dl class="facts">
    <dt>Policy</dt>
    <dd>${amendment.policyNumber}</dd>
    <dt>Amendment</dt>
    <dd>${amendment.policyChangeId} (${amendment.state}, confirmable until ${amendment.expiresAt})</dd>
    <dt>What changes</dt>
    <dd>
      ${
        amendment.changes.length === 0
          ? 'travellers’ details only'
          : html`<ul>
              ${amendment.changes.map((line) => html`<li>${line}</li>`)}
            </ul>`
      }
    </dd>
    <dt>Amount</dt>
    <dd>
      ${money(amendment.amountMinor, amendment.currency)}
      ${amendment.amountMinor > 0 ? '(charged)' : amendment.amountMinor < 0 ? '(refunded)' : ''}
    </dd>
    <dt>Premium judged</dt>
    <dd>${money(authority.premiumMinor, authority.currency)} (the amended policy)</dd>
    <dt>Who decides</dt>
    <dd>${whoDecides(authority)}</dd>
  </dl>`;
}

export function rulesView(rules: readonly ReferralRule[], reasonCodes: readonly string[], currency: string): Html {
  return html`<ul>
    ${reasonCodes.map((code) => {
      const rule = rules.find((r) => r.reasonCode === code);
      return html`<li><strong>${code}</strong>${rule ? html`: ${ruleText(rule, currency)}` : ''}</li>`;
    })}
  </ul>`;
}

/** Each screened traveller's outcome; the conditions only when given (a role that may see health data). */
export function screeningView(
  detail: ReferralDetail,
  conditions: ReadonlyMap<string, readonly ConditionAssessment[]> | undefined,
): Html {
  if (detail.screenings.length === 0) return html`<p>No medical screening on this quote.</p>`;
  const nameOf = (guid: string) => {
    const holder = detail.quote?.input.policyHolders?.find((h) => h.guid === guid);
    return holder ? `${holder.firstName ?? ''} ${holder.lastName ?? ''}` : guid;
  };
  return html`<ul>
    ${detail.screenings.map(
      (s) =>
        html`<li>
          ${nameOf(s.travellerGuid)}: ${s.status}${s.outcome ? `, ${s.outcome}` : ''}
          ${conditionList(conditions?.get(s.travellerGuid) ?? [])}
        </li>`,
    )}
  </ul>`;
}

function conditionList(conditions: readonly ConditionAssessment[]): Html | '' {
  if (conditions.length === 0) return '';
  return html`<ul>
    ${conditions.map((c) => html`<li>${c.name}: ${c.outcome}</li>`)}
  </ul>`;
}

export function historyView(entries: readonly OperatorActionEntry[]): Html {
  if (entries.length === 0) return html`<p>No decision yet.</p>`;
  return html`<ol>
    ${entries.map(
      (e) =>
        html`<li>${e.at}: ${e.action} by operator ${String(e.operatorId)}${e.reason ? html` — ${e.reason}` : ''}</li>`,
    )}
  </ol>`;
}
