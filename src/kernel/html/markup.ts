/**
 * HTML built by a tagged template that escapes every value unless it is already `Html`: a page
 * cannot print partner or catalogue text unescaped by forgetting a call.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe in element content and in a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

type Value = Html | string | number | undefined | null | false | readonly Value[];

function print(value: Value): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return (value as readonly Value[]).map(print).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${name}</p>\``: the values escaped, nested `Html` (and lists of it) kept as it is. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    text += print(value) + (strings[i + 1] ?? '');
  });
  return new Html(text);
}
