import type { PolicyActionType } from '../../policies/schemas-detail.js';
import type { MailAddress, MailAttachment, MailMessage } from './model.js';
import { WORDING, type MailLanguage } from './wording.js';

/** What a policy e-mail is made of: the transaction, its brand content and the documents to attach. */
export interface PolicyEmailInput {
  /** Stable per e-mail (e.g. the outbox key `policy-documents:<quoteId>:1 or policy-documents:<policyNumber>:<seq>`): the Message-ID derives from it. */
  readonly messageKey: string;
  readonly kind: PolicyActionType;
  /** The policy's language; the brand content must be in it (nomad: en and es). */
  readonly language: MailLanguage;
  /** `content` by content type (EMAILREPLYTOANDFROM, EMAILDOC, EFOOTER…) in `language`. */
  readonly brand: { readonly code: string; readonly name: string; readonly content: Readonly<Record<string, string>> };
  readonly policyNumber: string;
  readonly holder: { readonly firstName: string; readonly lastName: string; readonly email: string };
  /** The customer's document link (`/documents/v1/{policyDocumentAccessGuid}`), absolute http(s). */
  readonly documentLinkUrl: string;
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

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

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

/** The document e-mail of one policy transaction, as text and HTML; pure and deterministic. */
export function composePolicyEmail(input: PolicyEmailInput): MailMessage {
  const from = parseMailbox(required(input, 'EMAILREPLYTOANDFROM'));
  if (!from) throw new MailContentMissing(input.brand.code, 'EMAILREPLYTOANDFROM');
  const body = required(input, 'EMAILDOC');
  const footer = input.brand.content.EFOOTER?.trim() ?? '';
  const link = new URL(input.documentLinkUrl);
  if (link.protocol !== 'https:' && link.protocol !== 'http:') throw new Error('document link must be http(s)');
  const url = link.toString();
  const words = WORDING[input.language];
  const name = addressedName(input.holder);
  const policyNumber = oneLine(input.policyNumber);
  const lead = words.lead[input.kind](policyNumber);
  const files = input.attachments.map((a) => oneLine(a.filename));

  const text = [
    words.greeting(name),
    '',
    lead,
    body,
    '',
    words.linkIntro,
    url,
    ...(files.length > 0 ? ['', `${words.attachedTitle}:`, ...files.map((f) => `- ${f}`)] : []),
    ...(footer ? ['', '--', footer] : []),
    '',
  ].join('\n');

  const html = `<!doctype html>
<html lang="${input.language}">
<head><meta charset="utf-8"><title>${escapeHtml(words.subject(policyNumber))}</title></head>
<body style="font-family:Arial,sans-serif;line-height:1.5">
<p>${escapeHtml(words.greeting(name))}</p>
<p>${escapeHtml(lead)}</p>
<p>${escapeHtml(body)}</p>
<p>${escapeHtml(words.linkIntro)}<br><a href="${escapeHtml(url)}">${escapeHtml(words.linkText)}</a></p>
${files.length > 0 ? `<p>${escapeHtml(words.attachedTitle)}:</p>\n<ul>${files.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>\n` : ''}${footer ? `<hr><p style="font-size:smaller">${escapeHtml(footer)}</p>\n` : ''}</body>
</html>
`;

  return {
    messageId: messageIdFor(input.messageKey, from.address.split('@')[1] ?? 'localhost'),
    from,
    replyTo: from,
    to: { ...(name ? { name } : {}), address: oneLine(input.holder.email) },
    subject: words.subject(policyNumber),
    text,
    html,
    attachments: input.attachments,
  };
}
