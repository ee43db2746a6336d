import bidiModule from 'bidi-js';
import * as hb from 'harfbuzzjs';
import { memoize } from '../cache/memoize.js';
import { FALLBACK_FAMILY, faceOf, familyFor, type Face, type FamilyName, type Weight } from './faces.js';

/** One glyph as drawn; lengths in ems (multiply by the font size for points). */
export interface PlacedGlyph {
  readonly glyph: number;
  /** What the glyph stands for in the text layer (see `textOfCluster`). */
  readonly text: string;
  readonly advance: number;
  readonly dx: number;
  readonly dy: number;
  /** A blank glyph as wide as its advance: it only carries a shaped cluster's text (`textOfCluster`). */
  readonly carrier?: boolean;
  /** Drawn on its own at `dx` from where the pen is, outside the text flow (`textOfCluster`). */
  readonly overlay?: boolean;
}

export interface GlyphRun {
  readonly face: Face;
  readonly glyphs: readonly PlacedGlyph[];
}

/** A line ready to draw: runs left to right, each run's glyphs left to right (visual order). */
export interface ShapedLine {
  readonly runs: readonly GlyphRun[];
  /** In ems. */
  readonly width: number;
}

// bidi-js is CommonJS whose module.exports is the factory; its types declare it as the default export.
const bidi = (bidiModule as unknown as typeof bidiModule.default)();
// Characters that belong to the letter before them: marks, and the invisible ones (joiners,
// variation selectors, bidi isolates and marks), which HarfBuzz shapes as nothing in any face.
const CLINGS = /^[\p{M}\p{Default_Ignorable_Code_Point}]/u;
const LETTER = /^\p{L}/u;

interface Item {
  readonly start: number;
  readonly end: number;
  readonly family: FamilyName;
  readonly level: number;
  /** No shipped face has these characters: drawn as .notdef boxes. */
  readonly missing: boolean;
}

/**
 * Shapes one line (remembered: labels and words repeat from one document to the next): the Unicode bidi algorithm (bidi-js, paragraph left to right as every document
 * language is) gives each character its level, a font per character run (the Latin face first,
 * then the script's), HarfBuzz shapes each run (contextual forms, conjuncts, marks positioned),
 * and runs are put in visual order (UAX #9 rule L2).
 */
export const shapeLine = memoize(shapeUncached, 20_000);

function shapeUncached(line: string, weight: Weight): ShapedLine {
  // Control characters (the API accepts C1 ones in names) are no letters: nothing is drawn for them.
  const text = line.replace(/\p{Cc}/gu, '');
  const { levels } = bidi.getEmbeddingLevels(text, 'ltr');
  const runs = itemize(text, weight, levels).map((item) => shapeItem(text, item, weight));
  const ordered = visualOrder(runs);
  const width = ordered.reduce((sum, { run }) => run.glyphs.reduce((w, g) => w + g.advance, sum), 0);
  return { runs: ordered.map(({ run }) => run), width };
}

interface Char {
  readonly index: number;
  readonly char: string;
  readonly letter: boolean;
  readonly clings: boolean;
  family: FamilyName | undefined;
}

function itemize(text: string, weight: Weight, levels: Uint8Array): Item[] {
  const chars: Char[] = [];
  let index = 0;
  let previous: Char | undefined;
  for (const char of text) {
    const letter = LETTER.test(char);
    const clings = CLINGS.test(char);
    const family = clings ? previous?.family : letter ? familyFor(char, weight) : undefined;
    previous = { index, char, letter, clings, family };
    chars.push(previous);
    index += char.length;
  }
  // Spaces, digits and punctuation stay inside a run of one face; elsewhere the first face that has them.
  let before: FamilyName | undefined;
  const letterBefore = chars.map((c) => {
    const found = before;
    if (c.letter) before = c.family;
    return found;
  });
  let after: FamilyName | undefined;
  chars.reduceRight((_, c, i) => {
    if (c.letter) after = c.family;
    else if (c.family === undefined && !c.clings) {
      const around = letterBefore[i];
      const inside = around !== undefined && around === after && faceOf(around, weight).has(c.char.codePointAt(0) ?? 0);
      c.family = inside ? around : familyFor(c.char, weight);
    }
    return undefined;
  }, undefined);
  const items: Item[] = [];
  let family: FamilyName = FALLBACK_FAMILY;
  for (const c of chars) {
    // A mark or an invisible character after a space takes the face the space took.
    family = c.family ?? (c.clings ? family : FALLBACK_FAMILY);
    const missing = c.family === undefined && !c.clings;
    const level = levels[c.index] ?? 0;
    const last = items.at(-1);
    if (last && last.family === family && last.level === level && last.missing === missing)
      items[items.length - 1] = { ...last, end: c.index + c.char.length };
    else items.push({ start: c.index, end: c.index + c.char.length, family, level, missing });
  }
  return items;
}

function shapeItem(text: string, item: Item, weight: Weight): { run: GlyphRun; level: number } {
  const face = faceOf(item.family, weight);
  const em = face.unitsPerEm;
  if (item.missing) {
    const box = face.advance(0) / em;
    const glyphs = Array.from(text.slice(item.start, item.end), (char) => ({
      glyph: 0,
      text: char,
      advance: box,
      dx: 0,
      dy: 0,
    }));
    return { run: { face, glyphs }, level: item.level };
  }
  const buffer = new hb.Buffer();
  // The whole line is context (Arabic joining across a font change), the item what is shaped.
  buffer.addText(text, item.start, item.end - item.start);
  const rtl = item.level % 2 === 1;
  buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
  buffer.guessSegmentProperties();
  hb.shape(face.shaper, buffer);
  const shaped = buffer.getGlyphInfosAndPositions();
  // Glyphs of one cluster are adjacent; a cluster's text runs to the next cluster's start.
  const starts = [...new Set(shaped.map((g) => g.cluster))].sort((a, b) => a - b);
  const groups: (typeof shaped)[] = [];
  for (const g of shaped) {
    const group = groups.at(-1);
    if (group?.[0]?.cluster === g.cluster) group.push(g);
    else groups.push([g]);
  }
  const glyphs = groups.flatMap((group) => {
    const cluster = group[0]?.cluster ?? item.start;
    const next = starts[starts.indexOf(cluster) + 1] ?? item.end;
    return textOfCluster(text.slice(cluster, next), group, face, rtl);
  });
  return { run: { face, glyphs }, level: item.level };
}

const MARK = /\p{Mn}/u;

/**
 * A cluster's glyphs with the text each stands for. Where glyphs and characters pair off in order
 * (and no glyph with a width stands for a nonspacing mark, which readers take for zero width),
 * each glyph carries its character; a glyph split in two (Arabic dots) leaves its text on the part
 * with a width. Otherwise (a conjunct, a reordered vowel sign) the glyphs are drawn apart, outside
 * the text flow, carrying a zero-width space, which readers skip, and blank glyphs in the flow
 * carry the cluster's text: its first character as wide as the cluster, the rest with no width,
 * as readers count nonspacing marks. Right-to-left runs get their text reversed, as PDF readers
 * take them in visual order and turn them back.
 */
function textOfCluster(
  text: string,
  shaped: { codepoint: number; xAdvance?: number; xOffset?: number; yOffset?: number }[],
  face: Face,
  rtl: boolean,
): PlacedGlyph[] {
  const em = face.unitsPerEm;
  const chars = Array.from(text);
  if (rtl) chars.reverse();
  const placed = shaped.map((g) => ({
    glyph: g.codepoint,
    advance: (g.xAdvance ?? 0) / em,
    dx: (g.xOffset ?? 0) / em,
    dy: (g.yOffset ?? 0) / em,
  }));
  const paired =
    chars.length === placed.length && placed.every((g, k) => g.advance === 0 || !MARK.test(chars[k] ?? ''));
  if (paired) return placed.map((g, k) => ({ ...g, text: chars[k] ?? '' }));
  const wide = placed.filter((g) => g.advance !== 0);
  if (wide.length === 1 && !MARK.test(text))
    return placed.map((g) => ({ ...g, text: g === wide[0] ? chars.join('') : '\u200b' }));
  // The glyphs drawn apart, then blank carriers: the first character (not a mark) as wide as the
  // cluster, the rest with no width, as readers count a nonspacing mark.
  const blank = face.shaper.nominalGlyph(0x20) ?? 0;
  let pen = 0;
  const overlays = placed.map((g) => {
    const overlay = { ...g, text: '\u200b', advance: 0, dx: pen + g.dx, overlay: true };
    pen += g.advance;
    return overlay;
  });
  const first = chars[0] ?? '';
  const lead = MARK.test(first) ? '' : first;
  const rest = chars.slice(lead ? 1 : 0).join('');
  const carriers = [
    { glyph: blank, text: lead || '\u200b', advance: pen, dx: 0, dy: 0, carrier: true },
    ...(rest ? [{ glyph: blank, text: rest, advance: 0, dx: 0, dy: 0, carrier: true }] : []),
  ];
  return [...overlays, ...carriers];
}

/** UAX #9 L2 over runs of one level each: from the highest level down to the lowest odd one, reverse every stretch at or above it. */
function visualOrder<T extends { level: number }>(runs: T[]): T[] {
  let order = [...runs];
  const levels = order.map((r) => r.level);
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.filter((l) => l % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level -= 1) {
    const stretches: T[][] = [];
    for (const run of order) {
      const last = stretches.at(-1);
      const high = run.level >= level;
      if (last && high && (last[0]?.level ?? 0) >= level) last.push(run);
      else stretches.push([run]);
    }
    order = stretches.flatMap((stretch) => ((stretch[0]?.level ?? 0) >= level ? stretch.reverse() : stretch));
  }
  return order;
}
