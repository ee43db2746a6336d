import { rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';

const PAGE: [number, number] = [595.28, 841.89]; // A4 in points
const MARGIN = 56;

// The standard fonts encode WinAnsi only; anything else becomes '?' rather than failing the render.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export function printable(text: string): string {
  return Array.from(text, (c) => {
    const code = c.charCodeAt(0);
    // Latin-1 but its C1 controls (0x80–0x9F), which WinAnsi cannot encode (pdf-lib would throw).
    return code < 0x80 || (code >= 0xa0 && code < 256) || WIN_ANSI_EXTRA.has(c) ? c : '?';
  }).join('');
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of printable(text).split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The one PDF page writer (pdf-lib, standard fonts): wrapped lines top-down, A4 pages added as they
 * fill. The PDS (catalogue/pds-pdf.ts) and the policy documents (documents/certificate.ts) use it.
 */
export class PdfWriter {
  private page: PDFPage;
  private y: number;
  constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: { readonly regular: PDFFont; readonly bold: PDFFont },
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
    const prefix = printable(`${label}: `);
    this.page.drawText(prefix, { x: MARGIN, y: this.y - size, size, font: this.fonts.bold, color: INK });
    const indent = this.fonts.bold.widthOfTextAtSize(prefix, size);
    const [first = '', ...rest] = wrap(value, this.fonts.regular, size, PAGE[0] - 2 * MARGIN - indent);
    this.page.drawText(first, { x: MARGIN + indent, y: this.y - size, size, font: this.fonts.regular, color: INK });
    this.y -= size * 1.35;
    for (const more of rest) this.text(more, this.fonts.regular, size, 0);
    this.y -= 2;
  }

  /** Any text in `font`, wrapped to the page, then `gapAfter` points of space. */
  text(text: string, font: PDFFont, size: number, gapAfter = 4): void {
    for (const line of wrap(text, font, size, PAGE[0] - 2 * MARGIN)) {
      this.ensureRoom(size);
      this.page.drawText(line, { x: MARGIN, y: this.y - size, size, font, color: INK });
      this.y -= size * 1.35;
    }
    this.y -= gapAfter;
  }

  private ensureRoom(size: number): void {
    if (this.y - size >= MARGIN) return;
    this.page = this.pdf.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }
}

const INK = rgb(0.1, 0.1, 0.15);
