import { PDFDocument } from 'pdf-lib';
import { PdfWriter, documentFonts, printable } from '../kernel/pdf/writer.js';
import type { PdsDocumentFile } from './file-schemas.js';
import type { BrandCatalogue } from './model.js';

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
  const { regular, bold } = documentFonts(pdf);
  const out = new PdfWriter(pdf, { regular, bold });
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
