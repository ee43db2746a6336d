import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/documents/pdf-text.js';
import { PdfWriter, documentFonts, isolated, wrap } from './writer.js';
import { shapeLine } from './shaping.js';

const NAMES = [
  'Łukasz Dvořák',
  'Ελένη Παπαδοπούλου',
  'Ольга Петрова',
  '李小龍',
  '山田 太郎',
  '김민준',
  'محمد علي',
  'דוד כהן',
  'अर्जुन शर्मा',
  'कृष्ण क्षत्रिय',
  'สมชาย ใจดี',
];

async function render(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  const out = new PdfWriter(pdf, documentFonts(pdf));
  for (const line of lines) out.line(line);
  return pdf.save({ useObjectStreams: false });
}

describe('PDF writer, every script', () => {
  it('gives back each name from the text layer, no letter as ?', async () => {
    const bytes = await render(NAMES);
    const text = await pdfText(bytes);
    for (const name of NAMES) expect(text).toContain(name);
    expect(text).not.toContain('?');
  });

  it('orders a mixed-direction line visually: the Latin label left, the Arabic name right to left after it', () => {
    const line = shapeLine('Policy: محمد علي', 'regular');
    const [latin, arabic] = line.runs;
    expect(latin!.face.key).toBe('NotoSans-regular');
    expect(arabic!.face.key).toBe('NotoSansArabic-regular');
    // Drawn left to right, the Arabic run reads from its last letter: visual order.
    const arabicText = arabic!.glyphs
      .map((g) => g.text)
      .join('')
      .replaceAll('\u200b', '');
    expect(Array.from(arabicText).reverse().join('')).toBe('محمد علي');
  });

  it('extracts a mixed-direction line in logical order', async () => {
    const text = await pdfText(await render(['Policy: محمد علي', 'Name: דוד כהן']));
    expect(text).toContain('Policy:');
    expect(text).toContain('محمد علي');
    expect(text).toContain('דוד כהן');
  });

  it('keeps what follows an isolated right-to-left name in its own order', async () => {
    const line = shapeLine(`${isolated('محمد علي')}, 1980-05-17`, 'regular');
    const visual = line.runs.flatMap((r) => r.glyphs.map((g) => g.text)).join('');
    expect(visual.endsWith(', 1980-05-17')).toBe(true);
    // The isolate marks are shaped as nothing visible, never a .notdef box.
    expect(line.runs.flatMap((r) => r.glyphs).every((g) => g.glyph !== 0)).toBe(true);
    const text = await pdfText(await render([`${isolated('محمد علي')}, 1980-05-17`]));
    expect(text).toContain('محمد علي');
    expect(text).toContain('1980-05-17');
  });

  it('keeps a character no face has in the text layer (a .notdef box drawn)', async () => {
    const text = await pdfText(await render(['Trip 😀 Smith']));
    expect(text).toContain('😀');
  });

  it('wraps CJK text without spaces by character, each line within the width', () => {
    const lines = wrap(
      '長い中国語の文章はスペースがないので文字ごとに折り返す必要があります。'.repeat(3),
      'regular',
      12,
      200,
    );
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(shapeLine(line, 'regular').width * 12).toBeLessThanOrEqual(200.5);
  });

  it('gives the same bytes for the same text, with subset fonts', async () => {
    const [a, b] = [await render(NAMES), await render(NAMES)];
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(a.length).toBeLessThan(150_000);
  });
});
