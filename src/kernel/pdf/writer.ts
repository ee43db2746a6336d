import {
  PDFOperator,
  PDFOperatorNames,
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  setTextRise,
  type PDFDocument,
  type PDFPage,
} from 'pdf-lib';
import { DocumentFonts } from './embedding.js';
import type { Weight } from './faces.js';
import { shapeLine, type GlyphRun, type ShapedLine } from './shaping.js';

const PAGE: [number, number] = [595.28, 841.89]; // A4 in points
const MARGIN = 56;
const INK = rgb(0.1, 0.1, 0.15);

/** A weight of the document's typefaces, as the writer's callers name it (regular, bold). */
export interface TextFont {
  readonly fonts: DocumentFonts;
  readonly weight: Weight;
}

/** The typefaces of one document, every script in both weights, embedded (subset) when it is saved. */
export function documentFonts(pdf: PDFDocument): { readonly regular: TextFont; readonly bold: TextFont } {
  const fonts = new DocumentFonts(pdf);
  return { regular: { fonts, weight: 'regular' }, bold: { fonts, weight: 'bold' } };
}

/**
 * `text` as a bidi isolate (FSI … PDI): its direction stays inside, so a right-to-left name does
 * not pull the date or comma after it into its run ("محمد علي, 1980-05-17" keeps the date as written).
 */
export const isolated = (text: string): string => `\u2068${text}\u2069`;

/** Text as the document information dictionary can hold it: any script, lone surrogates replaced. */
export const printable = (text: string): string => text.toWellFormed();

// Scripts written without spaces between words: a line may break inside their words.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Lines of at most `width` points, measured shaped; words broken only where they cannot fit or need no space. */
export function wrap(text: string, weight: Weight, size: number, width: number): string[] {
  const measure = (piece: string) => shapeLine(piece, weight).width * size;
  const space = measure(' ');
  const pieces: { text: string; spaced: boolean; width: number }[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const whole = measure(word);
    if (whole <= width && !UNSPACED.test(word)) {
      pieces.push({ text: word, spaced: true, width: whole });
      continue;
    }
    let spaced = true;
    for (const { segment } of words.segment(word)) {
      const parts = measure(segment) <= width ? [segment] : Array.from(graphemes.segment(segment), (g) => g.segment);
      for (const part of parts) {
        pieces.push({ text: part, spaced, width: measure(part) });
        spaced = false;
      }
    }
  }
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const piece of pieces) {
    const gap = line && piece.spaced ? space : 0;
    if (line && used + gap + piece.width > width) {
      lines.push(line);
      line = piece.text;
      used = piece.width;
    } else {
      line += (gap ? ' ' : '') + piece.text;
      used += gap + piece.width;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The one PDF page writer: wrapped lines top-down, A4 pages added as they fill, every script drawn
 * shaped from the shipped Noto faces. The PDS (catalogue/pds-pdf.ts) and the policy documents
 * (documents/certificate.ts) use it.
 */
export class PdfWriter {
  private page: PDFPage;
  private y: number;
  constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: { readonly regular: TextFont; readonly bold: TextFont },
  ) {
    this.page = pdf.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }

  heading(text: string, size = 13): void {
    this.y -= 6;
    this.text(text, this.fonts.bold, size, 4);
  }

  line(text: string, size = 10): void {
    this.text(text, this.fonts.regular, size, 2);
  }

  /** `label: value` on one line, the label in bold. */
  field(label: string, value: string, size = 10): void {
    this.ensureRoom(size);
    const prefix = shapeLine(`${label}: `, 'bold');
    this.draw(prefix, this.fonts.bold, MARGIN, size);
    const indent = prefix.width * size;
    const [first = '', ...rest] = wrap(value, 'regular', size, PAGE[0] - 2 * MARGIN - indent);
    this.draw(shapeLine(first, 'regular'), this.fonts.regular, MARGIN + indent, size);
    this.y -= size * 1.35;
    for (const more of rest) this.text(more, this.fonts.regular, size, 0);
    this.y -= 2;
  }

  /** Any text in `font`, wrapped to the page, then `gapAfter` points of space. */
  text(text: string, font: TextFont, size: number, gapAfter = 4): void {
    for (const line of wrap(text, font.weight, size, PAGE[0] - 2 * MARGIN)) {
      this.ensureRoom(size);
      this.draw(shapeLine(line, font.weight), font, MARGIN, size);
      this.y -= size * 1.35;
    }
    this.y -= gapAfter;
  }

  /** One shaped line with its first line's top at the current position. */
  private draw(line: ShapedLine, font: TextFont, x: number, size: number): void {
    const operators: PDFOperator[] = [pushGraphicsState(), setFillingColor(INK), beginText()];
    let pen = x;
    for (const run of line.runs) {
      operators.push(
        setFontAndSize(font.fonts.nameOn(this.page, run.face), size),
        setTextMatrix(1, 0, 0, 1, pen, this.y - size),
      );
      operators.push(...this.glyphOperators(run, font.fonts, size, pen, this.y - size));
      pen += run.glyphs.reduce((sum, g) => sum + g.advance, 0) * size;
    }
    operators.push(endText(), popGraphicsState());
    this.page.pushOperators(...operators);
  }

  /**
   * A run as TJ arrays: each glyph moved from where the last one left the pen (its width in the
   * font) to where HarfBuzz placed it; a mark raised or lowered (`dy`) by the text rise.
   */
  private glyphOperators(run: GlyphRun, fonts: DocumentFonts, size: number, x: number, y: number): PDFOperator[] {
    const operators: PDFOperator[] = [];
    let shown: (ReturnType<DocumentFonts['code']> | number)[] = [];
    const flush = () => {
      if (shown.length)
        operators.push(PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [this.pdf.context.obj(shown)]));
      shown = [];
    };
    let pen = 0; // where HarfBuzz's pen is, in 1/1000 em
    let at = 0; // where the PDF's text position is
    let rise = 0;
    const overlays: { glyph: number; x: number; y: number }[] = [];
    for (const g of run.glyphs) {
      if (g.overlay) {
        overlays.push({ glyph: g.glyph, x: (pen + g.dx * 1000) / 1000, y: g.dy });
        continue;
      }
      if (g.dy !== rise) {
        flush();
        rise = g.dy;
        operators.push(setTextRise(round(rise * size)));
      }
      const move = round(pen + g.dx * 1000 - at);
      if (move !== 0) shown.push(-move);
      const width = g.carrier ? Math.round(g.advance * 1000) : fonts.width(run.face, g.glyph);
      shown.push(fonts.code(run.face, g.glyph, g.text, width));
      at += move + width;
      pen += g.advance * 1000;
    }
    flush();
    if (rise !== 0) operators.push(setTextRise(0));
    // A shaped cluster's glyphs, each placed on its own; readers skip their text (a zero-width space).
    for (const o of overlays) {
      operators.push(setTextMatrix(1, 0, 0, 1, round(x + o.x * size), round(y + o.y * size)));
      operators.push(PDFOperator.of(PDFOperatorNames.ShowText, [fonts.code(run.face, o.glyph, '\u200b')]));
    }
    return operators;
  }

  private ensureRoom(size: number): void {
    if (this.y - size >= MARGIN) return;
    this.page = this.pdf.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
