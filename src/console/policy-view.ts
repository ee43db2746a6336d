import { html, type Html } from '../kernel/html/markup.js';
import type { DetailRecord } from '../policies/model.js';
import { transactionMinor } from '../policies/transaction-amounts.js';
import { NOTE_TEXT_MAX } from '../policy-notes/model.js';
import type { PolicyOverview } from '../policy-overview/service.js';
import { documentsSection, emailsSection, eventsSection, screeningsSection } from './policy-view-activity.js';
import { localTime, moneyText } from './policy-view-format.js';

/** What the note form shows again after a refusal: the problem and what was typed. */
export interface NoteFormState {
  readonly problem?: string;
  readonly sequenceNumber?: string;
  readonly reasonId?: string;
  readonly text?: string;
}

function transactionOf(overview: PolicyOverview, detail: DetailRecord): Html {
  const { policy } = overview;
  const zone = policy.presentationTimeZoneCode;
  const notes = overview.notes.filter((n) => n.policyDetailId === detail.id);
  const primary = detail.travellers.find((t) => t.isPrimary);
  return html`<section aria-labelledby="transaction-${detail.sequenceNumber}">
    <h3 id="transaction-${detail.sequenceNumber}">${detail.sequenceNumber}. ${detail.actionType}</h3>
    <dl class="facts">
      <dt>Number</dt>
      <dd>${detail.policyDetailNumber}</dd>
      <dt>Status</dt>
      <dd>${detail.status}</dd>
      <dt>Made</dt>
      <dd>${localTime(detail.audit.createdAt, zone)}</dd>
      <dt>Cover</dt>
      <dd>${detail.departureDate} to ${detail.coverEndDate}</dd>
      <dt>Amount</dt>
      <dd>${moneyText(policy, transactionMinor(detail))} (${detail.paymentMethod})</dd>
      <dt>Primary traveller</dt>
      <dd>${primary ? `${primary.firstName} ${primary.surname}` : '—'}</dd>
      <dt>Travellers</dt>
      <dd>${[...detail.travellers, ...detail.dependents].length}</dd>
    </dl>
    <h4>Notes</h4>
    ${
      notes.length === 0
        ? html`<p>No notes.</p>`
        : html`<ol>
            ${notes.map(
              (n) =>
                html`<li>
                  <p class="meta">${localTime(n.createdAt, zone)}, operator ${n.userId}, reason: ${n.reason.text}</p>
                  <p>${n.text}</p>
                </li>`,
            )}
          </ol>`
    }
  </section>`;
}

function noteForm(overview: PolicyOverview, csrf: Html, state: NoteFormState): Html {
  const { policy, reasons } = overview;
  const latest = String(policy.sequenceNumber);
  const chosenSequence = state.sequenceNumber ?? latest;
  const chosenReason = state.reasonId ?? String(reasons.find((r) => r.isDefault)?.id ?? '');
  return html`<section aria-labelledby="add-note">
    <h2 id="add-note">Add a note</h2>
    ${state.problem ? html`<div class="notice" role="alert"><p>${state.problem}</p></div>` : ''}
    <form method="post" action="/console/policies/${encodeURIComponent(policy.policyNumber)}/notes">
      ${csrf}
      <div class="field">
        <label for="note-transaction">Transaction</label>
        <select id="note-transaction" name="sequenceNumber">
          ${policy.details.map(
            (d) =>
              html`<option
                value="${d.sequenceNumber}"
                ${String(d.sequenceNumber) === chosenSequence ? html`selected` : ''}
              >
                ${d.sequenceNumber}. ${d.actionType}
              </option>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="note-reason">Reason</label>
        <select id="note-reason" name="reasonId" required>
          ${reasons.map(
            (r) =>
              html`<option value="${r.id}" ${String(r.id) === chosenReason ? html`selected` : ''}>${r.text}</option>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="note-text">Note</label>
        <p class="hint" id="note-text-hint">
          Up to ${NOTE_TEXT_MAX} characters. The partner reads notes in the policy’s details: write nothing about
          health, and never a card number.
        </p>
        <textarea
          id="note-text"
          name="text"
          rows="5"
          maxlength="${NOTE_TEXT_MAX}"
          required
          aria-describedby="note-text-hint"
        >
${state.text ?? ''}</textarea>
      </div>
      <button class="button" type="submit">Add the note</button>
    </form>
  </section>`;
}

/** The policy page: the policy, every transaction with its notes, what happened around it, the note form. */
export function policyView(overview: PolicyOverview, options: { csrf?: Html; noteForm?: NoteFormState }): Html {
  const { policy } = overview;
  return html`<h1>Policy ${policy.policyNumber}</h1>
    <p><a href="/console/policies">Search policies</a></p>
    <dl class="facts">
      <dt>Status</dt>
      <dd>${policy.status}</dd>
      <dt>Partner</dt>
      <dd>${overview.partnerCode}</dd>
      <dt>Brand</dt>
      <dd>${policy.brandCode}</dd>
      <dt>Plan</dt>
      <dd>${policy.plan.shortDescription} (${policy.plan.code})</dd>
      <dt>Issued</dt>
      <dd>${localTime(policy.audit.createdAt, policy.presentationTimeZoneCode)}</dd>
    </dl>
    <section aria-labelledby="transactions">
      <h2 id="transactions">Transactions</h2>
      ${policy.details.map((d) => transactionOf(overview, d))}
    </section>
    ${options.csrf ? noteForm(overview, options.csrf, options.noteForm ?? {}) : ''} ${documentsSection(overview)}
    ${emailsSection(overview)} ${eventsSection(overview)} ${screeningsSection(overview)}`;
}
