/** The words printed on policy documents, per language a brand may offer (brand.yaml `languages`). */
export type DocumentLanguage = 'en' | 'es';
export const DOCUMENT_LANGUAGES: readonly DocumentLanguage[] = ['en', 'es'];

export interface DocumentLabels {
  readonly certificateTitle: string;
  readonly cancellationTitle: string;
  readonly plan: string;
  readonly policyNumber: string;
  readonly transaction: string;
  readonly sequence: string;
  readonly issued: string;
  readonly coverPeriod: string;
  readonly coverTo: string;
  readonly destinations: string;
  readonly travellers: string;
  readonly primary: string;
  readonly dependents: string;
  readonly options: string;
  readonly specifiedItems: string;
  readonly excess: string;
  readonly money: string;
  readonly premium: string;
  readonly discount: string;
  readonly donation: string;
  readonly fee: string;
  readonly transactionTotal: string;
  readonly refund: string;
  readonly paidToDate: string;
  readonly contacts: string;
  readonly emergency: string;
  readonly claims: string;
  readonly portal: string;
  readonly pds: string;
  readonly cancelledNotice: string;
  readonly none: string;
}

const en: DocumentLabels = {
  certificateTitle: 'Certificate of insurance',
  cancellationTitle: 'Cancellation notice',
  plan: 'Plan',
  policyNumber: 'Policy number',
  transaction: 'Transaction',
  sequence: 'sequence',
  issued: 'Issued',
  coverPeriod: 'Cover period',
  coverTo: 'to',
  destinations: 'Destinations',
  travellers: 'Travellers',
  primary: 'primary',
  dependents: 'Dependents',
  options: 'Options',
  specifiedItems: 'Specified items',
  excess: 'Excess',
  money: 'Amounts',
  premium: 'Premium',
  discount: 'Discount',
  donation: 'Donation',
  fee: 'Fee',
  transactionTotal: 'Total of this transaction',
  refund: 'Refund',
  paidToDate: 'Total paid to date',
  contacts: 'Contacts',
  emergency: 'Emergency assistance',
  claims: 'Claims',
  portal: 'Your policy online',
  pds: 'Product disclosure statement',
  cancelledNotice: 'This policy is cancelled. Cover ends as of this transaction.',
  none: 'None',
};

const es: DocumentLabels = {
  certificateTitle: 'Certificado de seguro',
  cancellationTitle: 'Aviso de cancelación',
  plan: 'Plan',
  policyNumber: 'Número de póliza',
  transaction: 'Transacción',
  sequence: 'secuencia',
  issued: 'Emitido',
  coverPeriod: 'Período de cobertura',
  coverTo: 'al',
  destinations: 'Destinos',
  travellers: 'Viajeros',
  primary: 'titular',
  dependents: 'Dependientes',
  options: 'Coberturas adicionales',
  specifiedItems: 'Artículos declarados',
  excess: 'Deducible',
  money: 'Importes',
  premium: 'Prima',
  discount: 'Descuento',
  donation: 'Donación',
  fee: 'Cargo',
  transactionTotal: 'Total de esta transacción',
  refund: 'Reembolso',
  paidToDate: 'Total pagado a la fecha',
  contacts: 'Contactos',
  emergency: 'Asistencia de emergencia',
  claims: 'Reclamaciones',
  portal: 'Su póliza en línea',
  pds: 'Declaración de información del producto',
  cancelledNotice: 'Esta póliza está cancelada. La cobertura termina con esta transacción.',
  none: 'Ninguno',
};

export const LABELS: Readonly<Record<DocumentLanguage, DocumentLabels>> = { en, es };

export const isDocumentLanguage = (value: string): value is DocumentLanguage =>
  (DOCUMENT_LANGUAGES as readonly string[]).includes(value);
