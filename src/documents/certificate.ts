import { PDFDocument } from 'pdf-lib';
import { amountFormat } from '../kernel/money/currency.js';
import { instantIn } from '../kernel/calendar/zones.js';
import { TRANSACTION_TYPE, type DetailRecord, type PersonRecord, type PolicyRecord } from '../policies/model.js';
import { LABELS, type DocumentLabels, type DocumentLanguage } from './labels.js';
import { PdfWriter, documentFonts, printable } from '../kernel/pdf/writer.js';

/** CERTIFICATE for a purchase or an amendment; CANCELLATION_NOTICE for a cancellation. */
export const DOCUMENT_KINDS = ['CERTIFICATE', 'CANCELLATION_NOTICE'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Everything a policy document shows; the render reads nothing else (no clock, no database). */
export interface CertificateFacts {
  readonly policy: PolicyRecord;
  /** The transaction the document is for (one of `policy.details`). */
  readonly detail: DetailRecord;
  /** Brand name and its content items (brand.yaml `contentItems`) in `language`, by type. */
  readonly brand: { readonly code: string; readonly name: string; readonly content: Readonly<Record<string, string>> };
  readonly language: DocumentLanguage;
  /** Names the PDS the cover is under (wording id and translation). */
  readonly pdsReference: string;
}

export const documentKindOf = (detail: DetailRecord): DocumentKind =>
  detail.actionType === 'Cancellation' ? 'CANCELLATION_NOTICE' : 'CERTIFICATE';

/** `certificate-<policy>-<seq>-<lang>.pdf`: ASCII only, safe in Content-Disposition. */
export function documentFileName(policyNumber: string, sequenceNumber: number, kind: DocumentKind, language: string) {
  const stem = kind === 'CERTIFICATE' ? 'certificate' : 'cancellation-notice';
  return `${stem}-${policyNumber.replace(/[^A-Za-z0-9-]/g, '_')}-${sequenceNumber}-${language}.pdf`;
}

function moneyOf(policy: PolicyRecord) {
  const digits = policy.currency.minorUnits;
  const number = amountFormat(digits);
  return (minor: number) =>
    `${minor < 0 ? '-' : ''}${policy.currency.symbol}${number.format(Math.abs(minor) / 10 ** digits)} ${policy.currency.code}`;
}

const sumOf = (detail: DetailRecord, type: number) =>
  detail.financials.filter((f) => f.transactionTypeId === type).reduce((sum, f) => sum + f.amountMinor, 0);

/** What the transaction charged (negative: refunded), as policies/present.ts counts it. */
export function transactionMinor(detail: DetailRecord): number {
  return (
    sumOf(detail, TRANSACTION_TYPE.Premium) -
    sumOf(detail, TRANSACTION_TYPE.Discount) +
    sumOf(detail, TRANSACTION_TYPE.Tax) +
    sumOf(detail, TRANSACTION_TYPE.Donation) +
    sumOf(detail, TRANSACTION_TYPE.Fee)
  );
}

const personLine = (person: PersonRecord, labels: DocumentLabels) =>
  [
    [person.title, person.firstName, person.surname].filter(Boolean).join(' '),
    person.dateOfBirth ?? (person.age === undefined ? undefined : String(person.age)),
    person.isPrimary ? `(${labels.primary})` : undefined,
  ]
    .filter(Boolean)
    .join(', ');

/**
 * Renders the certificate of insurance (or the cancellation notice) of one transaction. The same
 * facts give the same bytes: the PDF's dates are the transaction's instant, and no id is random.
 */
export async function renderPolicyDocument(facts: CertificateFacts): Promise<Uint8Array> {
  const { policy, detail, brand, language } = facts;
  const labels = LABELS[language];
  const kind = documentKindOf(detail);
  const money = moneyOf(policy);
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
  out.field(labels.policyNumber, policy.policyNumber);
  out.field(labels.transaction, `${detail.policyDetailNumber} (${labels.sequence} ${detail.sequenceNumber})`);
  out.field(labels.plan, `${policy.plan.shortDescription || policy.plan.code} (${policy.plan.code})`);
  const issued = instantIn(at, policy.presentationTimeZoneCode).localDateTime.slice(0, 16).replace('T', ' ');
  out.field(labels.issued, `${issued} (${policy.presentationTimeZoneCode})`);
  out.field(labels.coverPeriod, `${detail.departureDate} ${labels.coverTo} ${detail.coverEndDate}`);
  const destinations = policy.destinations.displayDescription ?? policy.destinations.names.join(', ');
  out.field(labels.destinations, destinations || labels.none);
  if (kind === 'CANCELLATION_NOTICE') out.line(labels.cancelledNotice);

  out.heading(labels.travellers);
  for (const person of detail.travellers) out.line(personLine(person, labels));
  if (detail.dependents.length > 0) {
    out.heading(labels.dependents);
    for (const person of detail.dependents) out.line(personLine(person, labels));
  }

  out.heading(labels.options);
  if (detail.options.length === 0) out.line(labels.none);
  for (const option of detail.options) out.line(option.name);
  if (detail.specifiedItems.length > 0) {
    out.heading(labels.specifiedItems);
    for (const item of detail.specifiedItems)
      out.line(`${item.name}${item.serialNumber ? ` (${item.serialNumber})` : ''}: ${money(item.valueMinor)}`);
  }
  out.field(labels.excess, money(policy.excessMinor));

  out.heading(labels.money);
  out.field(labels.premium, money(sumOf(detail, TRANSACTION_TYPE.Premium)));
  const discount = sumOf(detail, TRANSACTION_TYPE.Discount);
  if (discount !== 0) out.field(labels.discount, money(-discount));
  for (const f of detail.financials) {
    if (f.transactionTypeId === TRANSACTION_TYPE.Tax) out.field(f.name ?? 'Tax', money(f.amountMinor));
    if (f.transactionTypeId === TRANSACTION_TYPE.Fee) out.field(f.name ?? labels.fee, money(f.amountMinor));
  }
  const donation = sumOf(detail, TRANSACTION_TYPE.Donation);
  if (donation !== 0) out.field(labels.donation, money(donation));
  const total = transactionMinor(detail);
  out.field(kind === 'CANCELLATION_NOTICE' ? labels.refund : labels.transactionTotal, money(total));
  const toDate = policy.details
    .filter((d) => d.sequenceNumber <= detail.sequenceNumber)
    .reduce((sum, d) => sum + transactionMinor(d), 0);
  out.field(labels.paidToDate, money(toDate));

  out.heading(labels.contacts);
  const contact = (label: string, type: string) => {
    const value = brand.content[type];
    if (value) out.field(label, value);
  };
  contact(labels.emergency, 'EMERGENCYPHONE');
  contact(labels.claims, 'CLAIMSURL');
  contact(labels.portal, 'RSPORTALURL');
  out.field(labels.pds, facts.pdsReference);
  if (brand.content.EFOOTER) out.line(brand.content.EFOOTER, 8);

  // Object streams off: the bytes stay plain and stable across pdf-lib's save options.
  return pdf.save({ useObjectStreams: false });
}
