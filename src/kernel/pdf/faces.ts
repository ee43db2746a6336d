import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit, { type Font as FontkitFont } from '@pdf-lib/fontkit';
import * as hb from 'harfbuzzjs';

export type Weight = 'regular' | 'bold';

// Only a face that serves a character's script is asked for it, so an emoji loads no CJK face.
const CJK =
  /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * The shipped typefaces (Noto, SIL Open Font License, from npm packages; no system font), in the
 * order a character looks for its glyph: the Latin face first (Latin, Greek, Cyrillic), then one
 * face per script. Han and kana take the Simplified Chinese face; Hangul only the Korean one has.
 */
const FAMILIES = [
  ['NotoSans', '@expo-google-fonts/noto-sans', /./su],
  ['NotoSansArabic', '@expo-google-fonts/noto-sans-arabic', /\p{Script_Extensions=Arabic}/u],
  ['NotoSansHebrew', '@expo-google-fonts/noto-sans-hebrew', /\p{Script_Extensions=Hebrew}/u],
  ['NotoSansDevanagari', '@expo-google-fonts/noto-sans-devanagari', /\p{Script_Extensions=Devanagari}/u],
  ['NotoSansThai', '@expo-google-fonts/noto-sans-thai', /\p{Script_Extensions=Thai}/u],
  ['NotoSansSC', '@expo-google-fonts/noto-sans-sc', CJK],
  ['NotoSansKR', '@expo-google-fonts/noto-sans-kr', /[\p{Script_Extensions=Hangul}\p{Script_Extensions=Han}]/u],
] as const;

export type FamilyName = (typeof FAMILIES)[number][0];
const PACKAGE_OF = Object.fromEntries(FAMILIES.map(([name, pkg]) => [name, pkg])) as Record<FamilyName, string>;

/** Draws what no face has: its .notdef box (the text layer keeps the real character). */
export const FALLBACK_FAMILY: FamilyName = 'NotoSans';

/** One typeface at one weight, parsed once per process: HarfBuzz shapes with it, fontkit subsets it. */
export interface Face {
  readonly key: string;
  /** PostScript name, as the PDF names the embedded subset. */
  readonly postScriptName: string;
  readonly unitsPerEm: number;
  readonly shaper: hb.Font;
  readonly outlines: FontkitFont;
  /** The glyph's advance in font units (what the PDF's widths say). */
  advance(glyph: number): number;
  has(codePoint: number): boolean;
}

const require = createRequire(import.meta.url);
const faces = new Map<string, Face>();

/** The face of `family` at `weight`, read and parsed on first use only. */
export function faceOf(family: FamilyName, weight: Weight): Face {
  const key = `${family}-${weight}`;
  const known = faces.get(key);
  if (known) return known;
  const pkg = PACKAGE_OF[family];
  const dir = weight === 'bold' ? '700Bold' : '400Regular';
  const bytes = readFileSync(require.resolve(`${pkg}/${dir}/${family}_${dir}.ttf`));
  const shaper = new hb.Font(new hb.Face(new hb.Blob(bytes)));
  const outlines = fontkit.create(bytes);
  const advances = new Map<number, number>();
  const face: Face = {
    key,
    postScriptName: outlines.postscriptName ?? key,
    unitsPerEm: outlines.unitsPerEm,
    shaper,
    outlines,
    advance(glyph) {
      let width = advances.get(glyph);
      if (width === undefined) advances.set(glyph, (width = shaper.glyphHAdvance(glyph)));
      return width;
    },
    has: (codePoint) => shaper.nominalGlyph(codePoint) !== undefined,
  };
  faces.set(key, face);
  return face;
}

/** The first shipped family, in fallback order, that has a glyph for the character; undefined when none has. */
export function familyFor(char: string, weight: Weight): FamilyName | undefined {
  const codePoint = char.codePointAt(0) ?? 0;
  for (const [family, , serves] of FAMILIES)
    if (serves.test(char) && faceOf(family, weight).has(codePoint)) return family;
  return undefined;
}
