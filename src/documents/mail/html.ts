import type { PolicyMailContent } from './content.js';
import { phoneNumberIn } from '../../kernel/html/phone.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

// Inline styles only: mail clients drop <style> blocks and never fetch a stylesheet. One column of
// at most 600 px, 16 px text: read on a phone without zooming. Colours pass WCAG AA contrast.
const STYLE = {
  body: 'margin:0;padding:0;background-color:#f3f4f6;color:#1f2937;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5',
  column: 'max-width:600px;margin:0 auto;padding:16px',
  card: 'background-color:#ffffff;border-radius:8px;padding:24px 20px',
  brand: 'margin:0 0 8px;font-size:14px;color:#4b5563',
  heading: 'margin:0 0 16px;font-size:22px;line-height:1.3;color:#111827',
  subheading: 'margin:24px 0 8px;font-size:18px;line-height:1.3;color:#111827',
  paragraph: 'margin:0 0 16px',
  facts: 'margin:0 0 16px;padding:12px 16px;background-color:#f9fafb;border-left:4px solid #1d4ed8',
  term: 'margin:0;font-weight:bold',
  value: 'margin:0 0 8px;overflow-wrap:anywhere',
  button:
    'display:inline-block;padding:12px 20px;background-color:#1d4ed8;color:#ffffff;border-radius:6px;font-weight:bold;text-decoration:none',
  list: 'margin:0 0 16px;padding-left:20px;overflow-wrap:anywhere',
  footer: 'margin:16px 0 0;font-size:14px;color:#4b5563',
  link: 'color:#1d4ed8',
} as const;

/** The first phone number in brand text, as a `tel:` link a phone can dial; the rest stays text. */
function withPhoneLink(text: string): string {
  const phone = phoneNumberIn(text);
  if (!phone) return escapeHtml(text);
  const { before, number, dial, after } = phone;
  return `${escapeHtml(before)}<a href="tel:${escapeHtml(dial)}" style="${STYLE.link}">${escapeHtml(number)}</a>${escapeHtml(after)}`;
}

/**
 * The HTML part: a self-contained document (no script, no image, nothing fetched), every value
 * escaped. It says what the text part says, in the same order.
 */
export function mailHtml(content: PolicyMailContent): string {
  const p = (text: string) => `<p style="${STYLE.paragraph}">${escapeHtml(text)}</p>`;
  const facts = content.facts
    .map(
      (f) =>
        `<dt style="${STYLE.term}">${escapeHtml(f.label)}</dt><dd style="${STYLE.value}">${escapeHtml(f.value)}</dd>`,
    )
    .join('\n');
  const attached =
    content.attached.length === 0
      ? ''
      : `<h2 style="${STYLE.subheading}">${escapeHtml(content.attachedTitle)}</h2>
<ul style="${STYLE.list}">
${content.attached.map((a) => `<li>${escapeHtml(a.name)} (${escapeHtml(a.filename)})</li>`).join('\n')}
</ul>
`;
  const emergency = content.emergency
    ? `<h2 style="${STYLE.subheading}">${escapeHtml(content.emergency.title)}</h2>
<p style="${STYLE.paragraph}">${withPhoneLink(content.emergency.text)}</p>
`
    : '';
  return `<!doctype html>
<html lang="${content.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="${STYLE.body}">
<div style="${STYLE.column}">
<main style="${STYLE.card}">
<p style="${STYLE.brand}">${escapeHtml(content.brandName)}</p>
<h1 style="${STYLE.heading}">${escapeHtml(content.subject)}</h1>
${p(content.greeting)}
${p(content.lead)}
<dl style="${STYLE.facts}">
${facts}
</dl>
${content.brandText ? `${p(content.brandText)}\n` : ''}${p(content.link.intro)}
<p style="${STYLE.paragraph}"><a href="${escapeHtml(content.link.url)}" style="${STYLE.button}">${escapeHtml(content.link.text)}</a></p>
${attached}${emergency}</main>
${content.footer ? `<footer><p style="${STYLE.footer}">${escapeHtml(content.footer)}</p></footer>\n` : ''}</div>
</body>
</html>
`;
}
