import type { DocumentLanguage } from './labels.js';
import type { StoredDocument } from './repository.js';

/** The customer's document page and the link's 404, as HTML text. Pure; everything printed is escaped. */

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const WORDS = {
  en: {
    title: 'Your policy documents',
    intro: 'Policy',
    certificate: 'Certificate of insurance',
    cancellation: 'Cancellation notice',
    transaction: 'transaction',
    kb: 'KB',
  },
  es: {
    title: 'Los documentos de su póliza',
    intro: 'Póliza',
    certificate: 'Certificado de seguro',
    cancellation: 'Aviso de cancelación',
    transaction: 'transacción',
    kb: 'KB',
  },
} as const;

/** A small page: lang attribute, one heading, a list of download links with file name and size. */
export function documentLinkPage(input: {
  readonly brandName: string;
  readonly policyNumber: string;
  readonly language: DocumentLanguage;
  /** What a document's link points to, relative to the page. */
  readonly hrefOf: (doc: StoredDocument) => string;
  readonly documents: readonly StoredDocument[];
}): string {
  const words = WORDS[input.language];
  const items = input.documents.map((doc) => {
    const what = doc.kind === 'CANCELLATION_NOTICE' ? words.cancellation : words.certificate;
    const size = `${Math.max(1, Math.round(doc.sizeBytes / 1024))} ${words.kb}`;
    return `<li><a href="${escape(input.hrefOf(doc))}" download="${escape(doc.fileName)}" lang="${escape(doc.language)}">${escape(doc.fileName)}</a> — ${escape(what)}, ${words.transaction} ${doc.sequenceNumber} (${escape(doc.language)}, ${size})</li>`;
  });
  return `<!DOCTYPE html>
<html lang="${input.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escape(words.title)} — ${escape(input.brandName)}</title>
</head>
<body>
<main>
<h1>${escape(words.title)}</h1>
<p>${escape(input.brandName)} — ${escape(words.intro)} ${escape(input.policyNumber)}</p>
<h2>PDF</h2>
<ul>
${items.join('\n')}
</ul>
</main>
</body>
</html>
`;
}

/** The one answer to a wrong, expired or malformed link: the same bytes whatever the reason. */
export const NOT_FOUND_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex, nofollow">
<title>Not found</title>
</head>
<body>
<main>
<h1>Not found</h1>
<p>This page does not exist.</p>
</main>
</body>
</html>
`;
