import type { DocumentLanguage } from '../documents/labels.js';

/** The words of the on-account tax invoice, per language documents are printed in (the brand's default is used). */

export interface InvoiceLabels {
  readonly title: string;
  readonly insurer: string;
  readonly taxNumber: string;
  readonly billedTo: string;
  readonly period: string;
  readonly status: (closed: boolean) => string;
  readonly issued: string;
  readonly transactions: string;
  readonly none: string;
  readonly action: Readonly<Record<string, string>>;
  readonly includesTax: (tax: string) => string;
  readonly summary: string;
  readonly broughtForward: string;
  readonly charged: string;
  readonly credited: string;
  readonly taxIncluded: (tax: string) => string;
  readonly paymentsReceived: string;
  readonly payment: (reference: string, day: string) => string;
  readonly due: string;
}

const en: InvoiceLabels = {
  title: 'Tax invoice',
  insurer: 'Insurer',
  taxNumber: 'Tax number',
  billedTo: 'Billed to',
  period: 'Period',
  status: (closed) => (closed ? 'Closed statement' : 'Open statement: the month is not over, figures may still change'),
  issued: 'Issued',
  transactions: 'On-account transactions',
  none: 'No on-account transactions this month.',
  action: { Purchase: 'Purchase', Amendment: 'Amendment', Cancellation: 'Cancellation' },
  includesTax: (tax) => `incl. ${tax}`,
  summary: 'Account summary',
  broughtForward: 'Balance brought forward',
  charged: 'Charged this month',
  credited: 'Credited this month',
  taxIncluded: (tax) => `${tax} included in this month’s transactions`,
  paymentsReceived: 'Payments received',
  payment: (reference, day) => `Payment ${reference} received ${day}`,
  due: 'Amount due',
};

const es: InvoiceLabels = {
  title: 'Factura',
  insurer: 'Asegurador',
  taxNumber: 'Número de identificación fiscal',
  billedTo: 'Facturado a',
  period: 'Período',
  status: (closed) =>
    closed
      ? 'Estado de cuenta cerrado'
      : 'Estado de cuenta abierto: el mes no ha terminado, las cifras aún pueden cambiar',
  issued: 'Emitida',
  transactions: 'Operaciones a cuenta',
  none: 'No hubo operaciones a cuenta este mes.',
  action: { Purchase: 'Compra', Amendment: 'Modificación', Cancellation: 'Cancelación' },
  includesTax: (tax) => `incl. ${tax}`,
  summary: 'Resumen de la cuenta',
  broughtForward: 'Saldo anterior',
  charged: 'Cargado este mes',
  credited: 'Abonado este mes',
  taxIncluded: (tax) => `${tax} incluido en las operaciones del mes`,
  paymentsReceived: 'Pagos recibidos',
  payment: (reference, day) => `Pago ${reference} recibido el ${day}`,
  due: 'Importe adeudado',
};

export const INVOICE_LABELS: Readonly<Record<DocumentLanguage, InvoiceLabels>> = { en, es };

export const invoiceLabelsIn = (language: string): InvoiceLabels =>
  language === 'es' ? INVOICE_LABELS.es : INVOICE_LABELS.en;
