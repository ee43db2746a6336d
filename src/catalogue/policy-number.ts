/**
 * Policy number formats: a pattern built from parts, e.g. `{prefix}{jurisdiction}{yy}{increment:7}`.
 *
 *   format    := (literal | part)+
 *   literal   := one or more of A-Z 0-9 and `-`
 *   part      := `{prefix}` | `{jurisdiction}` | `{yy}` | `{yyyy}` | `{increment:N}` (N from 4 to 12)
 *
 * `{prefix}` is the plan's policyNumberPrefix, `{jurisdiction}` the ISO alpha-2 code of the
 * jurisdiction country, `{yy}`/`{yyyy}` the year of issue, `{increment:N}` a counter left-padded
 * with zeros to N digits. Exactly one `{prefix}` and one `{increment:N}` are required.
 */
export type PolicyNumberPart =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'prefix' | 'jurisdiction' | 'yy' | 'yyyy' }
  | { readonly kind: 'increment'; readonly digits: number };

const TOKEN = /\{(prefix|jurisdiction|yy|yyyy|increment:(\d+))\}|([A-Z0-9-]+)/y;

/** Parses a format; throws an Error naming the problem when the format breaks the grammar. */
export function parsePolicyNumberFormat(format: string): PolicyNumberPart[] {
  const parts: PolicyNumberPart[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < format.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(format);
    if (!match) throw new Error(`unexpected '${format.slice(at, at + 12)}' at position ${at}`);
    const [, name, digits, literal] = match;
    if (literal !== undefined) parts.push({ kind: 'literal', text: literal });
    else if (digits !== undefined) {
      const count = Number(digits);
      if (count < 4 || count > 12) throw new Error(`increment width ${count} is outside 4..12`);
      parts.push({ kind: 'increment', digits: count });
    } else parts.push({ kind: name as 'prefix' | 'jurisdiction' | 'yy' | 'yyyy' });
  }
  if (parts.filter((p) => p.kind === 'prefix').length !== 1) throw new Error('needs exactly one {prefix}');
  if (parts.filter((p) => p.kind === 'increment').length !== 1) throw new Error('needs exactly one {increment:N}');
  return parts;
}

export interface PolicyNumberValues {
  readonly prefix: string;
  /** ISO 3166 alpha-2 code of the jurisdiction country. */
  readonly jurisdiction: string;
  readonly year: number;
  readonly increment: number;
}

/** Builds a policy number from a format and the values of its parts. */
export function formatPolicyNumber(format: string, values: PolicyNumberValues): string {
  return parsePolicyNumberFormat(format)
    .map((part) => {
      switch (part.kind) {
        case 'literal':
          return part.text;
        case 'prefix':
          return values.prefix;
        case 'jurisdiction':
          return values.jurisdiction;
        case 'yy':
          return String(values.year % 100).padStart(2, '0');
        case 'yyyy':
          return String(values.year);
        case 'increment': {
          const text = String(values.increment);
          if (text.length > part.digits) throw new Error(`increment ${values.increment} does not fit ${part.digits} digits`);
          return text.padStart(part.digits, '0');
        }
      }
    })
    .join('');
}
