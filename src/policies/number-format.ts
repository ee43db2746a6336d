/**
 * Policy numbers from a plan's `policyNumberFormat`. The grammar (documented in
 * docs/api-contract.md):
 *
 *   format  := ( token | literal )*      with exactly one `{seq:N}` token
 *   token   := `{prefix}`                 the plan's policyNumberPrefix
 *            | `{country}`                the jurisdiction country code, upper case
 *            | `{yy}` | `{yyyy}`          the issue year (in the policy's time zone)
 *            | `{seq:N}`                  the counter, zero-padded to N digits (1 ≤ N ≤ 12)
 *   literal := any characters but `{` and `}` (letters, digits, `-`, `/` …)
 *
 * Example: `{prefix}{country}{yy}{seq:7}` with prefix `TI`, country `AU`, year 2026 and
 * counter 42 gives `TIAU260000042`. A counter wider than N digits is written in full, never cut.
 */

export interface PolicyNumberParts {
  readonly prefix: string;
  readonly country: string;
  readonly year: number;
}

/** The counter a number draws from: one row per distinct value of the parts the format uses. */
export interface CounterKey {
  readonly prefix: string;
  readonly country: string;
  readonly year: number;
}

type Piece =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'prefix' | 'country' | 'yy' | 'yyyy' }
  | { readonly kind: 'seq'; readonly width: number };

export interface PolicyNumberFormat {
  readonly source: string;
  readonly pieces: readonly Piece[];
}

export class InvalidPolicyNumberFormat extends Error {
  constructor(
    readonly format: string,
    reason: string,
  ) {
    super(`Policy number format '${format}' is invalid: ${reason}`);
    this.name = 'InvalidPolicyNumberFormat';
  }
}

const TOKEN = /\{([^{}]*)\}/g;
const LITERAL = /^[^{}]*$/;

/** Parses a format once; throws InvalidPolicyNumberFormat naming what is wrong. */
export function parsePolicyNumberFormat(source: string): PolicyNumberFormat {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of source.matchAll(TOKEN)) {
    const literal = source.slice(last, match.index);
    if (!LITERAL.test(literal)) throw new InvalidPolicyNumberFormat(source, 'unbalanced braces');
    if (literal) pieces.push({ kind: 'literal', text: literal });
    pieces.push(tokenPiece(source, match[1] ?? ''));
    last = match.index + match[0].length;
  }
  const tail = source.slice(last);
  if (!LITERAL.test(tail)) throw new InvalidPolicyNumberFormat(source, 'unbalanced braces');
  if (tail) pieces.push({ kind: 'literal', text: tail });
  const sequences = pieces.filter((p) => p.kind === 'seq').length;
  if (sequences !== 1) throw new InvalidPolicyNumberFormat(source, 'it needs exactly one {seq:N} token');
  return { source, pieces };
}

function tokenPiece(source: string, name: string): Piece {
  if (name === 'prefix' || name === 'country' || name === 'yy' || name === 'yyyy') return { kind: name };
  // The catalogue's spelling of the same parts (docs/api-contract.md, "Products"): plan data uses it.
  if (name === 'jurisdiction') return { kind: 'country' };
  const seq = /^(?:seq|increment):(\d{1,2})$/.exec(name);
  const width = seq ? Number(seq[1]) : 0;
  if (width < 1 || width > 12) throw new InvalidPolicyNumberFormat(source, `unknown token {${name}}`);
  return { kind: 'seq', width };
}

/**
 * The counter row a number of this format draws from. Parts the format does not show are
 * blanked, so that a format without a year keeps one counter for ever instead of restarting.
 */
export function counterKeyOf(format: PolicyNumberFormat, parts: PolicyNumberParts): CounterKey {
  const uses = (kind: Piece['kind']) => format.pieces.some((p) => p.kind === kind);
  return {
    prefix: uses('prefix') ? parts.prefix : '',
    country: uses('country') ? parts.country.toUpperCase() : '',
    year: uses('yy') || uses('yyyy') ? parts.year : 0,
  };
}

/** Renders the number for counter value `sequence` (≥ 1). */
export function formatPolicyNumber(format: PolicyNumberFormat, parts: PolicyNumberParts, sequence: number): string {
  return numberFrom(numberTemplateOf(format, parts), sequence);
}

/** The number of counter value `sequence` (≥ 1): zero-padded to the template's width, never cut. */
export function numberFrom(template: NumberTemplate, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`sequence must be a positive integer, got ${sequence}`);
  return template.before + String(sequence).padStart(template.width, '0') + template.after;
}

function partText(piece: Exclude<Piece, { kind: 'seq' }>, parts: PolicyNumberParts): string {
  switch (piece.kind) {
    case 'literal':
      return piece.text;
    case 'prefix':
      return parts.prefix;
    case 'country':
      return parts.country.toUpperCase();
    case 'yy':
      return String(parts.year % 100).padStart(2, '0');
    case 'yyyy':
      return String(parts.year).padStart(4, '0');
  }
}

/**
 * The number around its counter: `formatPolicyNumber(format, parts, n)` is `before`, then `n`
 * zero-padded to `width` digits (written in full when wider), then `after`. PostgreSQL renders
 * the number inside the statement that takes the counter (policies/repository.ts).
 */
export interface NumberTemplate {
  readonly before: string;
  readonly width: number;
  readonly after: string;
}

export function numberTemplateOf(format: PolicyNumberFormat, parts: PolicyNumberParts): NumberTemplate {
  const at = format.pieces.findIndex((piece) => piece.kind === 'seq');
  const seq = format.pieces[at];
  if (seq?.kind !== 'seq') throw new InvalidPolicyNumberFormat(format.source, 'it needs exactly one {seq:N} token');
  // parsePolicyNumberFormat admits exactly one {seq}: every other piece is a part.
  const text = (pieces: readonly Piece[]) => pieces.map((piece) => (piece.kind === 'seq' ? '' : partText(piece, parts))).join('');
  return { before: text(format.pieces.slice(0, at)), width: seq.width, after: text(format.pieces.slice(at + 1)) };
}

/** Detail numbers are the policy number, a hyphen and the transaction's sequence number. */
export function policyDetailNumber(policyNumber: string, sequenceNumber: number): string {
  return `${policyNumber}-${sequenceNumber}`;
}
