import { PDFDocument } from 'pdf-lib';
import type { DetailRecord } from '../policies/model.js';
import {
  amendmentSection,
  cancellationSection,
  contactsSection,
  coverSection,
  moneySection,
  optionsSection,
  peopleSection,
  transactionSection,
} from './certificate-sections.js';
import type { CertificateFacts } from './certificate-facts.js';
import { LABELS } from './labels.js';
import { medicalSection } from './medical-section.js';
import { PdfWriter, documentFonts, printable } from '../kernel/pdf/writer.js';

/** CERTIFICATE for a purchase or an amendment; CANCELLATION_NOTICE for a cancellation. */
export const DOCUMENT_KINDS = ['CERTIFICATE', 'CANCELLATION_NOTICE'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export type { CertificateFacts, DocumentNames, MedicalFacts, PolicyScreenings } from './certificate-facts.js';

export const documentKindOf = (detail: DetailRecord): DocumentKind =>
  detail.actionType === 'Cancellation' ? 'CANCELLATION_NOTICE' : 'CERTIFICATE';

/** `certificate-<policy>-<seq>-<lang>.pdf`: ASCII only, safe in Content-Disposition. */
export function documentFileName(policyNumber: string, sequenceNumber: number, kind: DocumentKind, language: string) {
  const stem = kind === 'CERTIFICATE' ? 'certificate' : 'cancellation-notice';
  return `${stem}-${policyNumber.replace(/[^A-Za-z0-9-]/g, '_')}-${sequenceNumber}-${language}.pdf`;
}

/**
 * Renders the certificate of insurance (or the cancellation notice) of one transaction. The same
 * facts give the same bytes: the PDF's dates are the transaction's instant, and no id is random.
 */
export async function renderPolicyDocument(facts: CertificateFacts): Promise<Uint8Array> {
  const { policy, detail, brand, language } = facts;
  const labels = LABELS[language];
  const kind = documentKindOf(detail);
  const at = new Date(detail.audit.createdAt);
  const title = kind === 'CERTIFICATE' ? labels.certificateTitle : labels.cancellationTitle;

  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(`${title} ${policy.policyNumber}`));
  pdf.setAuthor(printable(brand.name));
  pdf.setSubject(printable(`${policy.policyNumber} ${detail.policyDetailNumber}`));
  pdf.setLanguage(language);
  pdf.setCreator('partner-api documents');
  pdf.setProducer('pdf-lib');
  pdf.setCreationDate(at);
  pdf.setModificationDate(at);
  const out = new PdfWriter(pdf, documentFonts(pdf));

  out.line(brand.name, 11);
  out.heading(title, 18);
  transactionSection(out, facts, labels);
  if (kind === 'CANCELLATION_NOTICE') cancellationSection(out, facts, labels);
  else coverSection(out, facts, labels);
  if (detail.actionType === 'Amendment') amendmentSection(out, facts, labels);
  peopleSection(out, facts, labels);
  optionsSection(out, facts, labels);
  // Each screened person's conditions and outcomes: the cover a certificate states, not a notice's.
  if (kind === 'CERTIFICATE') medicalSection(out, facts);
  moneySection(out, facts, labels);
  contactsSection(out, facts, labels);

  // Object streams off: the bytes stay plain and stable across pdf-lib's save options.
  return pdf.save({ useObjectStreams: false });
}
