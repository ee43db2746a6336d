/**
 * Policy numbers: the one grammar of a plan's `policyNumberFormat` (docs/api-contract.md,
 * "Policy numbers"), read by the catalogue when it checks plan data and by policy issue when it
 * numbers a policy.
 *
 *   format  := ( part | literal )*
 *   part    := `{prefix}`                        the plan's policyNumberPrefix
 *            | `{jurisdiction}` | `{country}`     the jurisdiction country's ISO alpha-2 code, upper case
 *            | `{yy}` | `{yyyy}`                 the issue year (in the policy's time zone)
 *            | `{increment:N}` | `{seq:N}`        the counter, zero-padded to N digits
 *   literal := any characters but `{` and `}`
 *
 * A format numbers policies when it has exactly one counter, of 1 to 12 digits; a counter wider
 * than N digits is written in full, never cut. Plan data in the catalogue is held to more
 * (`checkPlanNumberFormat`): the first spelling of each part, literals of `A-Z 0-9 -` only,
 * exactly one `{prefix}` and a counter of 4 to 12 digits.
 *
 * Example: `{prefix}{jurisdiction}{yy}{increment:7}` with prefix `TI`, country `AU`, year 2026
 * and counter 42 gives `TIAU260000042`.
 */

import { memoize } from '../kernel/cache/memoize.js';

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

/** One piece of a format's text: a `{part}` (its name), a literal run, or a brace standing alone. */
interface Lexeme {
  readonly at: number;
  readonly part?: string;
  readonly literal?: string;
}

const LEXEME = /\{([^{}]*)\}|([^{}]+)|[{}]/y;

function lexemes(source: string): Lexeme[] {
  const found: Lexeme[] = [];
  LEXEME.lastIndex = 0;
  for (let match = LEXEME.exec(source); match; match = LEXEME.exec(source)) {
    const at = match.index;
    found.push(
      match[1] !== undefined ? { at, part: match[1] } : match[2] !== undefined ? { at, literal: match[2] } : { at },
    );
  }
  return found;
}

const COUNTER = /^(increment|seq):(\d+)$/;

/** The piece a `{part}` names, whichever spelling; undefined for a name outside the grammar. */
function partPiece(name: string): Piece | undefined {
  if (name === 'prefix' || name === 'country' || name === 'yy' || name === 'yyyy') return { kind: name };
  if (name === 'jurisdiction') return { kind: 'country' };
  const counter = COUNTER.exec(name);
  return counter ? { kind: 'seq', width: Number(counter[2]) } : undefined;
}

/** Parses a format once, for numbering; throws InvalidPolicyNumberFormat naming what is wrong. */
export function parsePolicyNumberFormat(source: string): PolicyNumberFormat {
  const pieces: Piece[] = [];
  for (const lexeme of lexemes(source)) {
    if (lexeme.literal !== undefined) pieces.push({ kind: 'literal', text: lexeme.literal });
    else if (lexeme.part === undefined) throw new InvalidPolicyNumberFormat(source, 'unbalanced braces');
    else {
      const piece = partPiece(lexeme.part);
      if (!piece || (piece.kind === 'seq' && (piece.width < 1 || piece.width > 12)))
        throw new InvalidPolicyNumberFormat(source, `unknown token {${lexeme.part}}`);
      pieces.push(piece);
    }
  }
  const sequences = pieces.filter((p) => p.kind === 'seq').length;
  if (sequences !== 1) throw new InvalidPolicyNumberFormat(source, 'it needs exactly one {seq:N} token');
  return { source, pieces };
}

/** A catalogue's plans share a few formats, and every issue reads one: each is parsed once (a refused one is not kept). */
export const policyNumberFormatOf: (source: string) => PolicyNumberFormat = memoize(parsePolicyNumberFormat, 64);

const PLAN_PART = /^(prefix|jurisdiction|yy|yyyy|increment:\d+)$/;
const PLAN_LITERAL_CHARACTER = /[^A-Z0-9-]/;

/**
 * The catalogue's check of a plan's format: the grammar in its first spellings, literals of
 * `A-Z 0-9 -`, exactly one `{prefix}` and one `{increment:N}` of 4 to 12 digits. Throws an Error
 * naming the first problem; a format it admits, `parsePolicyNumberFormat` admits too.
 */
export function checkPlanNumberFormat(source: string): void {
  const unexpected = (at: number) => new Error(`unexpected '${source.slice(at, at + 12)}' at position ${at}`);
  let prefixes = 0;
  let counters = 0;
  for (const lexeme of lexemes(source)) {
    if (lexeme.literal !== undefined) {
      const bad = lexeme.literal.search(PLAN_LITERAL_CHARACTER);
      if (bad >= 0) throw unexpected(lexeme.at + bad);
      continue;
    }
    if (lexeme.part === undefined || !PLAN_PART.test(lexeme.part)) throw unexpected(lexeme.at);
    const piece = partPiece(lexeme.part);
    if (piece?.kind === 'prefix') prefixes += 1;
    if (piece?.kind === 'seq') {
      if (piece.width < 4 || piece.width > 12) throw new Error(`increment width ${piece.width} is outside 4..12`);
      counters += 1;
    }
  }
  if (prefixes !== 1) throw new Error('needs exactly one {prefix}');
  if (counters !== 1) throw new Error('needs exactly one {increment:N}');
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
  if (!Number.isSafeInteger(sequence) || sequence < 1)
    throw new RangeError(`sequence must be a positive integer, got ${sequence}`);
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
  const text = (pieces: readonly Piece[]) =>
    pieces.map((piece) => (piece.kind === 'seq' ? '' : partText(piece, parts))).join('');
  return { before: text(format.pieces.slice(0, at)), width: seq.width, after: text(format.pieces.slice(at + 1)) };
}

/** Detail numbers are the policy number, a hyphen and the transaction's sequence number. */
export function policyDetailNumber(policyNumber: string, sequenceNumber: number): string {
  return `${policyNumber}-${sequenceNumber}`;
}
