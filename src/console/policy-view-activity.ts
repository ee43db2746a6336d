import { html, type Html } from '../kernel/html/markup.js';
import type { PolicyOverview } from '../policy-overview/service.js';
import { localTime, moneyText } from './policy-view-format.js';

/** The policy page's record of what happened around the policy: documents, e-mails, events, screenings. */

const none = (what: string) => html`<p>No ${what}.</p>`;

export function documentsSection(overview: PolicyOverview): Html {
  const { policy, documents } = overview;
  const zone = policy.presentationTimeZoneCode;
  const base = `/console/policies/${encodeURIComponent(policy.policyNumber)}/documents`;
  return html`<section aria-labelledby="documents">
    <h2 id="documents">Documents</h2>
    ${
      documents.length === 0
        ? none('documents yet')
        : html`<div class="scroll" tabindex="0">
            <table>
              <thead>
                <tr>
                  <th scope="col">Transaction</th>
                  <th scope="col">Document</th>
                  <th scope="col">Language</th>
                  <th scope="col">Size</th>
                  <th scope="col">Made</th>
                </tr>
              </thead>
              <tbody>
                ${documents.map(
                  (d) =>
                    html`<tr>
                      <td>${d.sequenceNumber}</td>
                      <td><a href="${base}/${encodeURIComponent(d.documentId)}">${d.fileName}</a> (${d.kind}, PDF)</td>
                      <td>${d.language}</td>
                      <td>${Math.ceil(d.sizeBytes / 1024)} KB</td>
                      <td>${localTime(d.createdAt, zone)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}

export function emailsSection(overview: PolicyOverview): Html {
  const { policy, emails } = overview;
  const zone = policy.presentationTimeZoneCode;
  return html`<section aria-labelledby="emails">
    <h2 id="emails">E-mails</h2>
    ${
      emails.length === 0
        ? none('e-mails')
        : html`<div class="scroll" tabindex="0">
            <table>
              <thead>
                <tr>
                  <th scope="col">Transaction</th>
                  <th scope="col">Kind</th>
                  <th scope="col">To</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last error</th>
                  <th scope="col">Queued</th>
                  <th scope="col">Sent</th>
                </tr>
              </thead>
              <tbody>
                ${emails.map(
                  (e) =>
                    html`<tr>
                      <td>${e.sequenceNumber}</td>
                      <td>${e.kind}</td>
                      <td>${e.to}</td>
                      <td>${e.state}</td>
                      <td>${e.attempts}</td>
                      <td>${e.lastError ?? '—'}</td>
                      <td>${localTime(e.createdAt, zone)}</td>
                      <td>${e.sentAt ? localTime(e.sentAt, zone) : '—'}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}

export function eventsSection(overview: PolicyOverview): Html {
  const { policy, events } = overview;
  const zone = policy.presentationTimeZoneCode;
  return html`<section aria-labelledby="events">
    <h2 id="events">Partner events and webhook deliveries</h2>
    ${
      events.length === 0
        ? none('events')
        : html`<div class="scroll" tabindex="0">
            <table>
              <thead>
                <tr>
                  <th scope="col">Sequence</th>
                  <th scope="col">Event</th>
                  <th scope="col">Occurred</th>
                  <th scope="col">Webhook deliveries</th>
                </tr>
              </thead>
              <tbody>
                ${events.map(
                  ({ event, deliveries }) =>
                    html`<tr>
                      <td>${event.policySequence ?? '—'}</td>
                      <td>${event.type} <span class="meta">${event.id}</span></td>
                      <td>${localTime(event.timestamp, zone)}</td>
                      <td>
                        ${
                          deliveries.length === 0
                            ? 'None (no endpoint subscribed)'
                            : html`<ul>
                                ${deliveries.map(
                                  (d) =>
                                    html`<li>
                                      ${d.webhookId}: ${d.state ?? 'not queued'}
                                      ${
                                        d.attempts.length === 0
                                          ? ''
                                          : html`<ol>
                                              ${d.attempts.map(
                                                (a) =>
                                                  html`<li>
                                                    ${localTime(a.attemptedAt, zone)}:
                                                    ${a.outcome}${
                                                      a.statusCode === undefined
                                                        ? ''
                                                        : ` (HTTP ${String(a.statusCode)})`
                                                    }${a.error ? `, ${a.error}` : ''}
                                                  </li>`,
                                              )}
                                            </ol>`
                                      }
                                    </li>`,
                                )}
                              </ul>`
                        }
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}

/** Health data: only in the overview of a role that may read it (policy-overview/service.ts). */
export function screeningsSection(overview: PolicyOverview): Html {
  const { policy, screenings } = overview;
  if (screenings === undefined) return html``;
  return html`<section aria-labelledby="screenings">
    <h2 id="screenings">Medical screening</h2>
    ${
      screenings.length === 0
        ? none('completed screenings on this policy')
        : screenings.map(
            (s) =>
              html`<h3>Screening ${s.reference}</h3>
                <p>Completed ${s.screeningDate}; outcome ${s.outcome}.</p>
                ${
                  s.conditions.length === 0
                    ? html`<p>No condition declared (or its detail has been purged).</p>`
                    : html`<div class="scroll" tabindex="0">
                        <table>
                          <thead>
                            <tr>
                              <th scope="col">Condition</th>
                              <th scope="col">Outcome</th>
                              <th scope="col">Medical premium</th>
                              <th scope="col">Excess</th>
                            </tr>
                          </thead>
                          <tbody>
                            ${s.conditions.map(
                              (c) =>
                                html`<tr>
                                  <td>${c.names.en ?? c.assessedName}</td>
                                  <td>${c.outcome}</td>
                                  <td>${moneyText(policy, c.medicalPremiumMinor)}</td>
                                  <td>${moneyText(policy, c.excessMinor)}</td>
                                </tr>`,
                            )}
                          </tbody>
                        </table>
                      </div>`
                }`,
          )
    }
  </section>`;
}
