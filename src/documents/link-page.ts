import { html, type Html } from '../kernel/html/markup.js';
import { SERVICE_LOOK } from '../kernel/html/look.js';
import { renderPage, type RenderedPage } from '../kernel/html/page.js';
import type { DocumentLanguage } from './labels.js';
import type { LinkBrand, PolicyPageFacts } from './link-view.js';
import type { StoredDocument } from './repository.js';
import { LINK_WORDS, type LinkWords } from './link-words.js';
import { phoneNumberIn } from '../kernel/html/phone.js';

/** The customer's pages (pure): the policy and its documents, the expired link, the link that opens nothing. */

// A formatter is costly to build (tens of microseconds): one per language for the process.
const DATE_FORMATS = new Map<DocumentLanguage, Intl.DateTimeFormat>();
function dateOf(isoDate: string, language: DocumentLanguage): string {
  let format = DATE_FORMATS.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
    DATE_FORMATS.set(language, format);
  }
  return format.format(new Date(`${isoDate}T00:00:00Z`));
}

const onlyWeb = (url: string | undefined) => (url && /^https?:\/\/[^\s"'<>]+$/.test(url) ? url : undefined);

/** The address of "Name <address>" (EMAILREPLYTOANDFROM), when it looks like one. */
const mailboxOf = (from: string | undefined) =>
  /<([^<>\s@]+@[^<>\s@]+)>/.exec(from ?? '')?.[1] ?? from?.match(/^[^<>\s@]+@[^<>\s@]+$/)?.[0];

/** EMERGENCYPHONE's text with its number as a tel: link (a tap on a phone calls it). */
function emergencyLine(text: string): Html {
  const phone = phoneNumberIn(text);
  if (!phone) return html`${text}`;
  return html`${phone.before}<a href="tel:${phone.dial}">${phone.number}</a>${phone.after}`;
}

/** How to reach the brand: e-mail, the policy portal and claims, from its content. */
function contacts(brand: LinkBrand, words: LinkWords): Html {
  const mailbox = mailboxOf(brand.content.EMAILREPLYTOANDFROM);
  const portal = onlyWeb(brand.content.RSPORTALURL);
  const claims = onlyWeb(brand.content.CLAIMSURL);
  const items = [
    mailbox && html`<li>${words.email}: <a href="mailto:${mailbox}">${mailbox}</a></li>`,
    portal && html`<li><a href="${portal}">${words.portal}</a></li>`,
    claims && html`<li><a href="${claims}">${words.claims}</a></li>`,
  ];
  return html`<h2>${words.contact}</h2>
    <ul>
      ${items}
    </ul>`;
}

function footer(brand: LinkBrand): Html | undefined {
  return brand.content.EFOOTER ? html`<p>${brand.content.EFOOTER}</p>` : undefined;
}

/** Links to the same page in the brand's other languages (`?lang=`); none when it offers one. */
function languageLinks(brand: LinkBrand, language: DocumentLanguage, words: LinkWords): Html | '' {
  if (brand.languages.length < 2) return '';
  const others = brand.languages.filter((l) => l.code !== language);
  const links = others.map(
    (l) => html`<li><a href="?lang=${l.code}" hreflang="${l.code}" lang="${l.code}">${l.name}</a></li>`,
  );
  return html`<nav aria-label="${words.languages}">
    <ul class="languages">
      ${links}
    </ul>
  </nav>`;
}

export interface CustomerPageInput {
  readonly brand: LinkBrand;
  readonly language: DocumentLanguage;
  readonly facts: PolicyPageFacts;
  /** What a document's link points to, relative to the page. */
  readonly hrefOf: (doc: StoredDocument) => string;
}

function documentItem(doc: StoredDocument, input: CustomerPageInput, words: LinkWords): Html {
  const title = doc.kind === 'CANCELLATION_NOTICE' ? words.cancellationNotice : words.certificate;
  const languageName = input.brand.languages.find((l) => l.code === doc.language)?.name ?? doc.language;
  const size = `${Math.max(1, Math.round(doc.sizeBytes / 1024))} KB`;
  return html`<li>
    <a href="${input.hrefOf(doc)}" download="${doc.fileName}">${title} (${languageName})</a>
    <div class="meta">PDF, ${size} · ${doc.fileName}</div>
  </li>`;
}

/** The policy's page: its brand, its facts and status, its documents by transaction and language, who to call. */
export function customerDocumentsPage(input: CustomerPageInput): RenderedPage {
  const { brand, language, facts } = input;
  const words = LINK_WORDS[language];
  const date = (d: string) => dateOf(d, language);
  const cancelled = facts.status === 'Cancelled';
  const status = cancelled
    ? html`<span class="status status-cancelled">${words.cancelled}</span>`
    : html`<span class="status status-active">${words.active}</span>`;
  const transactions = facts.transactions.map(
    (t) =>
      html`<h3>${words.transaction} ${t.sequenceNumber}: ${words.actions[t.actionType]}, ${date(t.date)}</h3>
        <ul class="files">
          ${t.documents.map((doc) => documentItem(doc, input, words))}
        </ul>`,
  );
  const emergency = brand.content.EMERGENCYPHONE;
  const main = html`${languageLinks(brand, language, words)}
    <h1>${words.title}</h1>
    ${cancelled ? html`<p class="notice">${words.cancelledNotice(date(facts.cover.to))}</p>` : ''}
    <section class="card" aria-labelledby="policy-heading">
      <h2 id="policy-heading">${words.policy} ${facts.policyNumber}</h2>
      <dl class="facts">
        <dt>${words.status}</dt>
        <dd>${status}</dd>
        <dt>${words.plan}</dt>
        <dd>${facts.planName}</dd>
        <dt>${words.travellers}</dt>
        <dd>${facts.travellers.map((name, i) => html`${i > 0 ? html`<br />` : ''}${name}`)}</dd>
        <dt>${words.trip}</dt>
        <dd>${date(facts.trip.from)} – ${date(facts.trip.to)}</dd>
        <dt>${words.destinations}</dt>
        <dd>${facts.destinations || '—'}</dd>
        <dt>${words.cover}</dt>
        <dd>${date(facts.cover.from)} – ${date(facts.cover.to)}</dd>
      </dl>
    </section>
    ${
      emergency && !cancelled
        ? html`<section class="card" aria-labelledby="emergency-heading">
            <h2 id="emergency-heading">${words.emergency}</h2>
            <p>${emergencyLine(emergency)}</p>
          </section>`
        : ''
    }
    <h2>${words.documents}</h2>
    ${transactions} ${contacts(brand, words)}`;
  return renderPage({ lang: language, title: words.title, look: brand.look, main, footer: footer(brand) });
}

/** A link whose value was real but no longer opens: it may say so, name the brand and its contacts, nothing of the policy. */
export function linkExpiredPage(brand: LinkBrand, language: DocumentLanguage): RenderedPage {
  const words = LINK_WORDS[language];
  const main = html`${languageLinks(brand, language, words)}
    <h1>${words.expiredTitle}</h1>
    <p>${words.expiredText}</p>
    ${contacts(brand, words)}`;
  return renderPage({ lang: language, title: words.expiredTitle, look: brand.look, main, footer: footer(brand) });
}

/** The one answer to a value that opens nothing: no brand, nothing that depends on the value. */
export function linkNotFoundPage(language: DocumentLanguage): RenderedPage {
  const words = LINK_WORDS[language];
  const main = html`<h1>${words.notFoundTitle}</h1>
    <p>${words.notFoundText}</p>`;
  return renderPage({
    lang: language,
    title: words.notFoundTitle,
    look: { ...SERVICE_LOOK, name: words.serviceName },
    main,
  });
}
