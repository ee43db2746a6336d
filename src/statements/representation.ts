/** The statement's representations, chosen by `Accept`. */
export const STATEMENT_MEDIA_TYPES = ['application/json', 'text/csv', 'application/pdf'] as const;
export type StatementMediaType = (typeof STATEMENT_MEDIA_TYPES)[number];

/**
 * The representation `accept` prefers (RFC 9110 §12.5.1: highest q first, then the order written;
 * `text/*` is CSV, `*` and `application/*` JSON); JSON when it names none of them or is absent.
 */
export function representationOf(accept: string | undefined): StatementMediaType {
  if (!accept) return 'application/json';
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { type, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { type } of ranges) {
    if ((STATEMENT_MEDIA_TYPES as readonly string[]).includes(type)) return type as StatementMediaType;
    if (type === 'text/*') return 'text/csv';
    if (type === '*/*' || type === 'application/*') return 'application/json';
  }
  return 'application/json';
}
