import { PDFDocument } from 'pdf-lib';
import { amountTextIn } from '../kernel/money/currency.js';
import { minorDigits } from '../kernel/money/units.js';
import { dateIn } from '../kernel/calendar/zones.js';
import { PdfWriter, documentFonts, printable } from '../kernel/pdf/writer.js';
import { invoiceLabelsIn } from './invoice-labels.js';
import type { PartnerStatement } from './model.js';
import { sumOf } from './service.js';

/** Who issues the invoice and to whom: the brand's catalogue content and the partner. */
export interface InvoiceParties {
  readonly brandName: string;
  /** The brand's default language: the invoice's words and amounts. */
  readonly language: string;
  /** Content item INSURERNAME. */
  readonly insurerName: string;
  /** Content item INSURERTAXNUMBER (e.g. an ABN or a GST number). */
  readonly insurerTaxNumber: string;
  readonly partnerName: string;
  /** When the invoice is issued: the month's end once it has closed, else now. */
  readonly issuedAt: Date;
}

/** `tax-invoice-<brand>-<partner>-<month>.pdf`: ASCII only, safe in Content-Disposition. */
export const invoiceFileName = (statement: PartnerStatement) =>
  `tax-invoice-${statement.brandCode}-${statement.partnerCode.replace(/[^A-Za-z0-9-]/g, '_')}-${statement.period.month}.pdf`;

/**
 * The tax invoice of a statement's on-account part, on the project's PDF writer (every script
 * from the shipped faces): the insurer and its tax number, each on-account transaction with its
 * taxes, the taxes included, the balance brought forward, payments received and the amount due.
 */
export async function renderTaxInvoice(statement: PartnerStatement, parties: InvoiceParties): Promise<Uint8Array> {
  const labels = invoiceLabelsIn(parties.language);
  const money = amountTextIn(parties.language, statement.currencyCode, minorDigits(statement.currencyCode));
  const day = (instant: string | Date) => dateIn(new Date(instant), statement.timeZone);
  const { period, onAccount } = statement;
  const lines = statement.lines.filter((l) => l.paymentMethod === 'ON_ACCOUNT');

  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(`${labels.title} ${statement.partnerCode} ${period.month}`));
  pdf.setAuthor(printable(parties.insurerName));
  pdf.setSubject(printable(`${parties.brandName} ${period.month}`));
  pdf.setLanguage(parties.language);
  pdf.setCreator('partner-api statements');
  pdf.setProducer('pdf-lib');
  pdf.setCreationDate(parties.issuedAt);
  pdf.setModificationDate(parties.issuedAt);
  const out = new PdfWriter(pdf, documentFonts(pdf));

  out.line(parties.brandName, 11);
  out.heading(labels.title, 18);
  out.field(labels.insurer, parties.insurerName);
  out.field(labels.taxNumber, parties.insurerTaxNumber);
  out.field(labels.billedTo, `${parties.partnerName} (${statement.partnerCode})`);
  const lastDay = dateIn(new Date(new Date(period.to).getTime() - 1), statement.timeZone);
  out.field(labels.period, `${period.month} (${day(period.from)} – ${lastDay}, ${statement.timeZone})`);
  out.field(labels.issued, day(parties.issuedAt));
  out.line(labels.status(period.status === 'CLOSED'), 9);

  out.heading(labels.transactions);
  if (lines.length === 0) out.line(labels.none);
  for (const line of lines) {
    const taxes = line.taxes.map((t) => `${labels.includesTax(t.name)} ${money(t.amountMinor)}`).join(', ');
    const action = labels.action[line.action] ?? line.action;
    out.line(
      `${day(line.committedAt)}  ${line.policyNumber}  ${line.policyDetailNumber}  ${action}: ${money(line.totalMinor)}${taxes ? ` (${taxes})` : ''}`,
      9,
    );
  }

  out.heading(labels.summary);
  out.field(labels.broughtForward, money(onAccount.balanceBroughtForwardMinor));
  out.field(labels.charged, money(onAccount.chargedMinor));
  out.field(labels.credited, money(onAccount.creditedMinor));
  for (const tax of sumOf(lines).taxes) out.field(labels.taxIncluded(tax.name), money(tax.amountMinor));
  for (const payment of onAccount.payments)
    out.line(`${labels.payment(payment.reference, payment.receivedOn)}: ${money(payment.amountMinor)}`, 9);
  out.field(labels.paymentsReceived, money(onAccount.paymentsReceivedMinor));
  out.heading(`${labels.due}: ${money(onAccount.dueMinor)}`, 14);

  // Object streams off: the bytes stay plain and stable across pdf-lib's save options.
  return pdf.save({ useObjectStreams: false });
}
