import type { PolicyActionType } from '../../policies/schemas-detail.js';
import { isoDate } from '../../kernel/calendar/dates.js';
import { calendarDateIn } from '../../kernel/calendar/zones.js';
import { mailHtml } from './html.js';
import type { AttachedDocument, MailAddress, MailAttachment, MailMessage } from './model.js';
import type { MailFact, PolicyMailContent } from './content.js';
import { WORDING, type MailLanguage, type MailOccasion, type MailWording } from './wording.js';
import { amountTextIn } from '../../kernel/money/currency.js';

/** What a policy e-mail is made of: the transaction, its brand content and the documents to attach. */
export interface PolicyEmailInput {
  /** Stable per e-mail (e.g. the outbox key `policy-documents:<quoteId>:1 or policy-documents:<policyNumber>:<seq>`): the Message-ID derives from it. */
  readonly messageKey: string;
  /** The transaction the e-mail is about (a resend: the policy's latest). */
  readonly kind: PolicyActionType;
  /** A partner asked for the documents again (POST …/documents/send): told as such, not as a new transaction. */
  readonly resend: boolean;
  /** The policy's language; the brand content must be in it (nomad: en and es). */
  readonly language: MailLanguage;
  /** `content` by content type (EMAILREPLYTOANDFROM, EMAILDOC, EMERGENCYPHONE, EFOOTER…) in `language`. */
  readonly brand: { readonly code: string; readonly name: string; readonly content: Readonly<Record<string, string>> };
  readonly policyNumber: string;
  readonly holder: { readonly firstName: string; readonly lastName: string; readonly email: string };
  /** The cover's first and last days after the transaction: plain dates (YYYY-MM-DD) in `timeZone`, the policy's zone. */
  readonly trip: { readonly departureDate: string; readonly coverEndDate: string; readonly timeZone: string };
  /** When the transaction was made (ISO instant): a cancellation tells its date in the policy's zone. */
  readonly transactionAt: string;
  /** Everyone the transaction covers, primary traveller first, as named on the policy. */
  readonly travellers: readonly { readonly firstName: string; readonly lastName: string }[];
  /** In minor units of `currency`: what this transaction charged (negative: refunded) and the policy's net total after it. */
  readonly money: {
    readonly currencyCode: string;
    readonly minorDigits: number;
    readonly transactionMinor: number;
    readonly paidToDateMinor: number;
  };
  /** The customer's document link (`/documents/v1/{policyDocumentAccessGuid}`), absolute http(s). */
  readonly documentLinkUrl: string;
  /** Exactly what is attached: the e-mail names these and claims nothing else. */
  readonly attachments: readonly MailAttachment[];
}

/** Brand content an e-mail cannot be built without (a catalogue fault, not the customer's). */
export class MailContentMissing extends Error {
  constructor(
    readonly brandCode: string,
    readonly contentType: string,
  ) {
    super(`Brand ${brandCode} has no usable ${contentType} content for e-mail`);
    this.name = 'MailContentMissing';
  }
}

// Control characters never reach a header or a body line (names come from partners).
// eslint-disable-next-line no-control-regex
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/** `Name <local@domain>` or `local@domain` → an address; undefined when it is neither. */
export function parseMailbox(value: string): MailAddress | undefined {
  const named = /^\s*(.*?)\s*<([^<>\s@]+@[^<>\s@]+)>\s*$/.exec(value);
  if (named) {
    const name = oneLine(named[1] ?? '').replace(/^"(.*)"$/, '$1');
    return { ...(name ? { name } : {}), address: named[2] ?? '' };
  }
  const bare = /^\s*([^<>\s@]+@[^<>\s@]+)\s*$/.exec(value);
  return bare ? { address: bare[1] ?? '' } : undefined;
}

/**
 * `<key@domain>` where the key is encoded injectively into characters a Message-ID may hold
 * (`:` → `=3A`), so two keys never share an id and the same key always gives the same one.
 */
export function messageIdFor(key: string, domain: string): string {
  const local = key.replace(/[^A-Za-z0-9_-]/g, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
  return `<${local}@${domain}>`;
}

function required(input: PolicyEmailInput, type: string): string {
  const value = input.brand.content[type]?.trim();
  if (!value) throw new MailContentMissing(input.brand.code, type);
  return value;
}

/**
 * A person's name as a letter may be addressed with it: letters (any script) and marks, single
 * spaces, apostrophes and hyphens between them, a period only after an initial, at most 80
 * characters. The partner supplies the names: text
 * that is no name ("Claim your refund at http://…") never reaches the insurer's e-mail, which
 * then greets the customer without one.
 */
const PERSONAL_NAME = /^(?=.{1,80}$)[\p{L}\p{M}](?:[\p{L}\p{M}]|[' \u2019-](?=[\p{L}\p{M}])|\.(?= |$))*$/u;

function addressedName(holder: { readonly firstName: string; readonly lastName: string }): string | undefined {
  const name = oneLine(`${holder.firstName} ${holder.lastName}`).replace(/\s+/g, ' ');
  return PERSONAL_NAME.test(name) ? name : undefined;
}

/** A plain date (YYYY-MM-DD) written out in the language: `10 December 2026`, `10 de diciembre de 2026`. */
function longDateIn(locale: string): (date: string) => string {
  // The date is already the policy's zone's: formatted at UTC midnight it is never shifted.
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  return (date) => format.format(new Date(`${date}T00:00:00Z`));
}

/** What the transaction moved: paid (positive), refunded (a positive amount, so worded), or nothing. */
function amountFact(input: PolicyEmailInput, words: MailWording, occasion: MailOccasion): MailFact {
  // `AUD 123.45` / `123,45 USD`: the code, the currency's minor digits, the language's separators.
  const money = amountTextIn(words.locale, input.money.currencyCode, input.money.minorDigits, 'code');
  if (occasion === 'Resend') return { label: words.paidToDate, value: money(input.money.paidToDateMinor) };
  const minor = input.money.transactionMinor;
  if (minor > 0) return { label: words.amountPaid, value: money(minor) };
  if (minor < 0) return { label: words.amountRefunded, value: money(-minor) };
  return { label: words.amount, value: words.nothingPaidOrRefunded };
}

/** The e-mail's words in reading order, before they become text or HTML; pure. */
export function policyMailContent(input: PolicyEmailInput): PolicyMailContent {
  const words = WORDING[input.language];
  const occasion: MailOccasion = input.resend ? 'Resend' : input.kind;
  const policyNumber = oneLine(input.policyNumber);
  const longDate = longDateIn(words.locale);
  const link = new URL(input.documentLinkUrl);
  if (link.protocol !== 'https:' && link.protocol !== 'http:') throw new Error('document link must be http(s)');
  const { departureDate, coverEndDate, timeZone } = input.trip;
  const facts: MailFact[] = [
    { label: words.tripDates, value: words.dateRange(longDate(departureDate), longDate(coverEndDate), timeZone) },
  ];
  if (input.kind === 'Cancellation' && !input.resend) {
    const day = isoDate(calendarDateIn(new Date(input.transactionAt), timeZone));
    facts.push({ label: words.cancelledOn, value: longDate(day) });
  }
  const names = input.travellers.map((t, index) => addressedName(t) ?? words.traveller(index + 1));
  facts.push({ label: words.travellers, value: names.join(', ') }, amountFact(input, words, occasion));
  const hasDocument = (kind: AttachedDocument['kind']) => input.attachments.some((a) => a.document.kind === kind);
  // EMAILDOC is the brand's sentence about an e-mail carrying the certificate and the PDS
  // ("…are attached"): it is only true, and so only said, when both are.
  const brandText = hasDocument('CERTIFICATE') && hasDocument('PDS') ? required(input, 'EMAILDOC') : undefined;
  const emergency = input.brand.content.EMERGENCYPHONE?.trim();
  const footer = input.brand.content.EFOOTER?.trim();
  return {
    language: input.language,
    brandName: oneLine(input.brand.name),
    subject: words.subject[occasion](policyNumber),
    greeting: words.greeting(addressedName(input.holder)),
    lead: [words.lead[occasion](policyNumber), ...(input.resend ? [words.standing[input.kind]] : [])].join(' '),
    facts,
    ...(brandText ? { brandText } : {}),
    link: { intro: words.linkIntro, text: words.linkText, url: link.toString() },
    attachedTitle: words.attachedTitle(input.attachments.length),
    attached: input.attachments.map((a) => ({
      name: a.document.kind === 'PDS' ? oneLine(a.document.name) : words.documentName[a.document.kind],
      filename: oneLine(a.filename),
    })),
    ...(emergency ? { emergency: { title: words.emergency, text: emergency } } : {}),
    ...(footer ? { footer } : {}),
  };
}

/** The text part: the same content as the HTML, line by line. */
export function mailText(content: PolicyMailContent): string {
  return [
    content.greeting,
    '',
    content.lead,
    '',
    ...content.facts.map((f) => `${f.label}: ${f.value}`),
    ...(content.brandText ? ['', content.brandText] : []),
    '',
    content.link.intro,
    content.link.url,
    ...(content.attached.length > 0
      ? ['', `${content.attachedTitle}:`, ...content.attached.map((a) => `- ${a.name} (${a.filename})`)]
      : []),
    ...(content.emergency ? ['', `${content.emergency.title}: ${content.emergency.text}`] : []),
    ...(content.footer ? ['', '-- ', content.footer] : []),
    '',
  ].join('\n');
}

/** The document e-mail of one policy transaction (or resend), as text and HTML; pure and deterministic. */
export function composePolicyEmail(input: PolicyEmailInput): MailMessage {
  const from = parseMailbox(required(input, 'EMAILREPLYTOANDFROM'));
  if (!from) throw new MailContentMissing(input.brand.code, 'EMAILREPLYTOANDFROM');
  // Required of every brand even where a kind leaves it out: a brand is whole or not sellable.
  required(input, 'EMAILDOC');
  const name = addressedName(input.holder);
  const content = policyMailContent(input);
  return {
    messageId: messageIdFor(input.messageKey, from.address.split('@')[1] ?? 'localhost'),
    from,
    replyTo: from,
    to: { ...(name ? { name } : {}), address: oneLine(input.holder.email) },
    subject: content.subject,
    text: mailText(content),
    html: mailHtml(content),
    attachments: input.attachments,
  };
}
