import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { PdsDocumentFile } from './file-schemas.js';
import type { BrandCatalogue } from './model.js';

const PAGE: [number, number] = [595.28, 841.89]; // A4 in points
const MARGIN = 56;

// The standard fonts encode WinAnsi only; anything else becomes '?' rather than failing the import.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
function printable(text: string): string {
  return Array.from(text, (c) => (c.charCodeAt(0) < 256 || WIN_ANSI_EXTRA.has(c) ? c : '?')).join('');
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

/** Writes lines top-down, adding pages as they fill. */
class Writer {
  private page: PDFPage;
  private y: number;
  constructor(private readonly pdf: PDFDocument) {
    this.page = pdf.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }
  text(text: string, font: PDFFont, size: number, gapAfter = 4): void {
    for (const line of wrap(text, font, size, PAGE[0] - 2 * MARGIN)) {
      if (this.y - size < MARGIN) {
        this.page = this.pdf.addPage(PAGE);
        this.y = PAGE[1] - MARGIN;
      }
      this.page.drawText(line, { x: MARGIN, y: this.y - size, size, font, color: rgb(0.1, 0.1, 0.15) });
      this.y -= size * 1.35;
    }
    this.y -= gapAfter;
  }
}

/**
 * Renders one PDS document of a contract from catalogue content: title, issuer, the plans the
 * contract covers with their dates, then the document's sections. Dated `issuedAt` so the same
 * content gives the same bytes.
 */
export async function renderPds(brand: BrandCatalogue, contractId: number, doc: PdsDocumentFile, issuedAt: Date): Promise<Buffer> {
  const contract = brand.brand.insuranceContracts.find((c) => c.insuranceContractId === contractId);
  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(doc.title));
  pdf.setAuthor(printable(brand.brand.name));
  pdf.setSubject(printable(doc.name));
  pdf.setLanguage(doc.lang);
  pdf.setCreator('partner-api catalogue import');
  pdf.setProducer('pdf-lib');
  pdf.setCreationDate(issuedAt);
  pdf.setModificationDate(issuedAt);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const out = new Writer(pdf);
  out.text(doc.title, bold, 18, 10);
  out.text(`${brand.brand.name} - ${contract?.name ?? ''} (contract ${contractId}, underwriter ${contract?.underwriterCode ?? ''})`, regular, 10, 12);
  const plans = brand.plans.filter((p) => p.insuranceContractId === contractId && (!doc.planIds || doc.planIds.includes(p.planId)));
  out.text(doc.lang === 'es' ? 'Planes' : 'Plans', bold, 13, 6);
  for (const plan of plans) {
    const name = plan.translations[doc.lang]?.name ?? plan.name;
    const to = plan.effectiveToDate ?? (doc.lang === 'es' ? 'sin fecha de fin' : 'until further notice');
    out.text(`${name} (${plan.code}, plan ${plan.planId}, ${plan.quoteType}): ${plan.effectiveFromDate} - ${to}; ${plan.currencyCode}`, regular, 10, 2);
  }
  out.text('', regular, 6, 6);
  for (const section of doc.sections) {
    out.text(section.heading, bold, 13, 4);
    out.text(section.body, regular, 10, 10);
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}
