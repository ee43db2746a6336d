import { escapeHtml } from '../compose.js';
import type { KeptMail, KeptMailSummary } from '../repository.js';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f4f4f4;padding:1rem}td,th{text-align:left;padding:.25rem .75rem .25rem 0}</style>
</head>
<body>
<p><strong>Sandbox mailbox</strong>: e-mails this staging server kept instead of sending them.</p>
<h1>${escapeHtml(title)}</h1>
${body}
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

/** One e-mail: its headers, its text body and links to its attachments (the HTML body is not rendered). */
export function mailPage(mail: KeptMail, base: string): string {
  const headers: [string, string][] = [
    ['From', mail.from],
    ['Reply-To', mail.replyTo],
    ['To', mail.to],
    ['Message-ID', mail.messageId],
    ['Kept at', mail.createdAt],
  ];
  const attachments = mail.attachments
    .map(
      (a) =>
        `<li><a href="${escapeHtml(`${base}/${String(mail.id)}/attachments/${String(a.position)}`)}" download>${escapeHtml(a.filename)}</a> (${escapeHtml(a.contentType)}, ${String(a.sizeBytes)} bytes)</li>`,
    )
    .join('\n');
  return page(
    mail.subject,
    `<dl>
${headers.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}
</dl>
<h2>Text</h2>
<pre data-text>${escapeHtml(mail.text)}</pre>
<h2>Attachments</h2>
${attachments ? `<ul>\n${attachments}\n</ul>` : '<p>None.</p>'}
<p><a href="${escapeHtml(base)}">All e-mails</a></p>`,
  );
}

export const NOT_FOUND_PAGE = page('Not found', '<p>There is no such e-mail or attachment.</p>');
