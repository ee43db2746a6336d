import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import {
  PDFHexString,
  PDFName,
  PDFString,
  type PDFContext,
  type PDFDocument,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { setBounded } from '../cache/bounded-map.js';
import type { Face } from './faces.js';

/** A face as one document uses it: the codes drawn so far, each a (glyph, text) pair. */
interface FaceUse {
  readonly face: Face;
  readonly ref: PDFRef;
  readonly codes: Map<string, number>;
  /** Index = code (CID); code 0 is .notdef with no text. */
  readonly entries: { glyph: number; text: string; width: number }[];
}

/**
 * The fonts of one document: each face embedded once as a Type0 font, subset to the glyphs drawn
 * (fontkit), written when pdf-lib saves. A code (CID) names a glyph together with the text it
 * stands for, so the ToUnicode map gives each shaped glyph its own characters back even where one
 * glyph stands for different text in two places; CIDToGIDMap takes codes to the subset's glyphs.
 */
export class DocumentFonts {
  private readonly uses = new Map<string, FaceUse>();
  private readonly pageNames = new Map<PDFPage, Map<string, PDFName>>();

  constructor(private readonly pdf: PDFDocument) {
    // pdf-lib writes what it embeds when the document is saved; it offers no public hook for a
    // font it did not build, so this one joins its list of things to embed then.
    (pdf as unknown as { fonts: { embed(): Promise<void> }[] }).fonts.push({
      embed: () => Promise.resolve(this.embed()),
    });
  }

  /** The 2-byte code of `glyph` standing for `text` in `face` (allocated on first use); `width` for a carrier. */
  code(face: Face, glyph: number, text: string, width = this.width(face, glyph)): PDFHexString {
    const use = this.useOf(face);
    const key = `${glyph}:${width}:${text}`;
    let code = use.codes.get(key);
    if (code === undefined) {
      code = use.entries.length;
      use.entries.push({ glyph, text, width });
      use.codes.set(key, code);
    }
    return PDFHexString.of(code.toString(16).padStart(4, '0'));
  }

  /** Width of a code's glyph in the PDF's 1/1000 em, as the font's W array says. */
  width(face: Face, glyph: number): number {
    return Math.round((face.advance(glyph) * 1000) / face.unitsPerEm);
  }

  /** The resource name of `face` on `page`. */
  nameOn(page: PDFPage, face: Face): PDFName {
    let names = this.pageNames.get(page);
    if (!names) this.pageNames.set(page, (names = new Map<string, PDFName>()));
    let name = names.get(face.key);
    if (!name) names.set(face.key, (name = page.node.newFontDictionary(face.key, this.useOf(face).ref)));
    return name;
  }

  private useOf(face: Face): FaceUse {
    let use = this.uses.get(face.key);
    if (!use) {
      use = {
        face,
        ref: this.pdf.context.nextRef(),
        codes: new Map(),
        entries: [{ glyph: 0, text: '', width: this.width(face, 0) }],
      };
      this.uses.set(face.key, use);
    }
    return use;
  }

  private embed(): void {
    for (const use of this.uses.values()) this.embedFace(use);
  }

  private embedFace({ face, ref, entries }: FaceUse): void {
    const context = this.pdf.context;
    const { bytes, length, tag, gidOf } = subsetFileOf(face, entries);
    const gids = entries.map((e) => gidOf.get(e.glyph) ?? 0);
    const baseFont = PDFName.of(`${tag}+${face.postScriptName}`);
    const scale = 1000 / face.unitsPerEm;
    const { outlines } = face;
    const descriptor = context.obj({
      Type: 'FontDescriptor',
      FontName: baseFont,
      Flags: 4, // symbolic: glyphs are addressed by code, not by a standard encoding
      FontBBox: [outlines.bbox.minX, outlines.bbox.minY, outlines.bbox.maxX, outlines.bbox.maxY].map((v) =>
        Math.round(v * scale),
      ),
      ItalicAngle: outlines.italicAngle,
      Ascent: Math.round(outlines.ascent * scale),
      Descent: Math.round(outlines.descent * scale),
      CapHeight: Math.round((outlines.capHeight || outlines.ascent) * scale),
      StemV: 0,
      FontFile2: context.register(context.stream(bytes, { Length1: length, Filter: 'FlateDecode' })),
    });
    const cidToGid = new Uint8Array(gids.length * 2);
    gids.forEach((gid, cid) => cidToGid.set([gid >> 8, gid & 0xff], cid * 2));
    const cidFont = context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: baseFont,
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
      FontDescriptor: context.register(descriptor),
      W: [0, entries.map((e) => e.width)],
      CIDToGIDMap: context.register(flate(context, cidToGid)),
    });
    const toUnicode = context.register(flate(context, Buffer.from(unicodeMap(entries.map((e) => e.text)))));
    context.assign(
      ref,
      context.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: baseFont,
        Encoding: 'Identity-H',
        DescendantFonts: [context.register(cidFont)],
        ToUnicode: toUnicode,
      }),
    );
  }
}

/** A face's subset: its font file compressed, the file's length, its tag, and each glyph's place in it. */
interface SubsetFile {
  readonly bytes: Uint8Array;
  readonly length: number;
  readonly tag: string;
  readonly gidOf: ReadonlyMap<number, number>;
}

// The Latin face always carries Basic Latin, Latin-1 and Latin Extended-A: the labels and most
// names stay within them, so most documents use one subset per face, built once per process
// (subsetting and compressing it cost more than the rest of a certificate: docs/performance.md).
const COMMON_LATIN = [...range(0x20, 0x7e), ...range(0xa0, 0x17f)];
const COMMON_FAMILY = 'NotoSans-';
const commonGlyphs = new Map<string, readonly number[]>();
const subsetFiles = new Map<string, SubsetFile>();
const SUBSETS_KEPT = 64;

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The subset of `face` holding the entries' glyphs (and, for the Latin face, the common ones), glyphs in id order. */
function subsetFileOf(face: Face, entries: readonly { glyph: number }[]): SubsetFile {
  let common = commonGlyphs.get(face.key);
  if (!common) {
    common = face.key.startsWith(COMMON_FAMILY)
      ? COMMON_LATIN.flatMap((c) => (face.has(c) ? [face.outlines.glyphForCodePoint(c).id] : []))
      : [];
    commonGlyphs.set(face.key, common);
  }
  const glyphs = [...new Set([0, ...common, ...entries.map((e) => e.glyph)])].sort((a, b) => a - b);
  const key = `${face.key}:${glyphs.join(',')}`;
  const known = subsetFiles.get(key);
  if (known) return known;
  const subset = padGlyphs(face.outlines.createSubset());
  const gidOf = new Map(glyphs.map((glyph) => [glyph, subset.includeGlyph(glyph)]));
  const file = encoded(subset);
  // A tag of six capitals marks a subset; derived from what it holds so the same document gives the same bytes.
  const digest = createHash('sha256').update(file).digest();
  const tag = Array.from(digest.subarray(0, 6), (b) => String.fromCharCode(65 + (b % 26))).join('');
  const made = { bytes: deflateSync(file), length: file.length, tag, gidOf };
  setBounded(subsetFiles, key, made, SUBSETS_KEPT);
  return made;
}

interface SubsetInternals {
  _addGlyph(gid: number): number;
  glyf: Uint8Array[];
  offset: number;
}

/**
 * fontkit copies each glyph's bytes as they are and then writes the short loca format, which
 * counts in 2-byte units: the Noto faces store glyphs unpadded, so an odd-length glyph would shift
 * every later one. Each glyph copied is padded to an even length first.
 */
function padGlyphs<T extends object>(subset: T): T {
  const internals = subset as unknown as SubsetInternals;
  const addGlyph = internals._addGlyph.bind(internals);
  internals._addGlyph = (gid) => {
    const index = addGlyph(gid);
    const bytes = internals.glyf[index];
    if (bytes && bytes.length % 2 === 1) {
      // fontkit's encoder takes only its own Buffer class: allocate through the glyph's own.
      const padded = (bytes.constructor as unknown as { alloc(size: number): Uint8Array }).alloc(bytes.length + 1);
      padded.set(bytes);
      internals.glyf[index] = padded;
      internals.offset += 1;
    }
    return index;
  };
  return subset;
}

/** A Flate stream compressed by Node's zlib: the font files are most of a document's bytes, and pdf-lib's own deflate is JavaScript. */
function flate(context: PDFContext, bytes: Uint8Array, dict: Record<string, number> = {}) {
  return context.stream(deflateSync(bytes), { ...dict, Filter: 'FlateDecode' });
}

type Subset = ReturnType<Face['outlines']['createSubset']>;
interface EncodeStream {
  end(): void;
  read(): Uint8Array | null;
}
let EncodeStreamClass: (new () => EncodeStream) | undefined;

/**
 * The subset's font file, encoded at once. fontkit's `encodeStream()` hands the bytes over through
 * its bundled stream polyfill, whose ticks are timers (a millisecond or more each, several per
 * font); its stream class, taken once from a throwaway stream, is written and read synchronously.
 */
function encoded(subset: Subset): Uint8Array {
  EncodeStreamClass ??= (Object.getPrototypeOf(subset.encodeStream()) as { constructor: new () => EncodeStream })
    .constructor;
  const stream = new EncodeStreamClass();
  (subset as unknown as { encode(stream: EncodeStream): void }).encode(stream);
  stream.end();
  return Buffer.from(stream.read() ?? new Uint8Array());
}

const hex = (text: string) =>
  Array.from({ length: text.length }, (_, i) => text.charCodeAt(i).toString(16).padStart(4, '0')).join('');

/** The ToUnicode CMap: each code to its UTF-16 text (code 0, .notdef, has none). */
function unicodeMap(texts: readonly string[]): string {
  const lines = texts.flatMap((text, code) => (text ? [`<${code.toString(16).padStart(4, '0')}> <${hex(text)}>`] : []));
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i += 100)
    blocks.push(`${Math.min(100, lines.length - i)} beginbfchar\n${lines.slice(i, i + 100).join('\n')}\nendbfchar`);
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <ffff>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}
