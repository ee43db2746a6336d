import { escapeHtml } from '../html.js';
import type { KeptMail, KeptMailSummary } from '../repository.js';

// One column on a phone; from 64rem the HTML part and the text part side by side, as a tester compares them.
const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:80rem;margin:1rem auto;padding:0 1rem;color:#1f2937;line-height:1.5}',
  'h1{font-size:1.5rem;line-height:1.3;overflow-wrap:anywhere}',
  'dd{margin:0 0 .5rem;overflow-wrap:anywhere}dt{font-weight:bold}',
  'pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;padding:1rem;margin:0}',
  'table{width:100%;border-collapse:collapse}',
  'td,th{text-align:left;padding:.25rem .75rem .25rem 0;vertical-align:top;overflow-wrap:anywhere}',
  '.parts{display:grid;gap:1rem}.parts>section{min-width:0}',
  '@media (min-width:64rem){.parts{grid-template-columns:3fr 2fr}}',
  'iframe{width:100%;height:80vh;border:1px solid #6b7280;background:#fff}',
].join('');

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><p><strong>Sandbox mailbox</strong>: e-mails this staging server kept instead of sending them.</p></header>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** The kept e-mails, newest first, each a link to its page. */
export function mailListPage(mails: readonly KeptMailSummary[], base: string): string {
  if (mails.length === 0)
    return page('No e-mails yet', '<p>Nothing has been sent since this database was created.</p>');
  const rows = mails
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.createdAt)}</td><td>${escapeHtml(m.to)}</td><td><a href="${escapeHtml(`${base}/${String(m.id)}`)}">${escapeHtml(m.subject)}</a></td></tr>`,
    )
    .join('\n');
  return page(
    'E-mails',
    `<table>
<thead><tr><th scope="col">Kept at</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`,
  );
}

/**
 * One e-mail as a mail client shows it: its headers; its HTML part in a sandboxed frame (no
 * scripts, no forms, an opaque origin; served by its own route under a strict policy) beside its
 * text part; and its attachments as downloads.
 */
export function mailPage(mail: KeptMail, base: string): string {
  const headers: [string, string][] = [
    ['From', mail.from],
    ['Reply-To', mail.replyTo],
    ['To', mail.to],
    ['Message-ID', mail.messageId],
    ['Kept at', mail.createdAt],
  ];
  const own = `${base}/${String(mail.id)}`;
  const attachments = mail.attachments
    .map(
      (a) =>
        `<li><a href="${escapeHtml(`${own}/attachments/${String(a.position)}`)}" download>${escapeHtml(a.filename)}</a> (${escapeHtml(a.contentType)}, ${String(a.sizeBytes)} bytes)</li>`,
    )
    .join('\n');
  return page(
    mail.subject,
    `<dl>
${headers.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}
</dl>
<div class="parts">
<section aria-labelledby="html-part">
<h2 id="html-part">HTML</h2>
${
  mail.html
    ? `<iframe sandbox="" src="${escapeHtml(`${own}/html`)}" title="${escapeHtml(`HTML part: ${mail.subject}`)}" referrerpolicy="no-referrer" loading="lazy"></iframe>`
    : '<p>This e-mail has no HTML part.</p>'
}
</section>
<section aria-labelledby="text-part">
<h2 id="text-part">Text</h2>
<pre data-text>${escapeHtml(mail.text)}</pre>
</section>
</div>
<h2>Attachments</h2>
${attachments ? `<ul>\n${attachments}\n</ul>` : '<p>None.</p>'}
<p><a href="${escapeHtml(base)}">All e-mails</a></p>`,
  );
}

export const NOT_FOUND_PAGE = page('Not found', '<p>There is no such e-mail or attachment.</p>');
