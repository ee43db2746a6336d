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
  readonly tax: string;
  /** The fees the servicing rules charge (policy-changes/rules.ts), in this language. */
  readonly amendmentFee: string;
  readonly cancellationFee: string;
  /** The transaction's total: a purchase's charge, an amendment's charge, a refund, or nothing moved. */
  readonly amountPaid: string;
  readonly additionalPremiumPaid: string;
  readonly amountRefunded: string;
  readonly nothingPaid: string;
  /** A part of a refund given back, and a part kept from it (a fee, a discount withdrawn). */
  readonly refundedPart: (part: string) => string;
  readonly deductedPart: (part: string) => string;
  readonly paidToDate: string;
  readonly countryOfResidence: string;
  readonly contacts: string;
  readonly emergency: string;
  readonly claims: string;
  readonly portal: string;
  readonly pds: string;
  readonly cancelledNotice: string;
  readonly effectiveFrom: string;
  readonly coverHasEnded: string;
  readonly coverWillEnd: string;
  readonly changes: string;
  /** "now X (was Y)": a value an amendment changed. */
  readonly nowWas: (now: string, was: string) => string;
  readonly destinationsAdded: string;
  readonly destinationsRemoved: string;
  readonly travellersAdded: string;
  readonly travellersRemoved: string;
  readonly dependentsAdded: string;
  readonly dependentsRemoved: string;
  readonly optionsAdded: string;
  readonly optionsRemoved: string;
  readonly itemsAdded: string;
  readonly itemsRemoved: string;
  readonly noCoverChange: string;
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
  tax: 'Tax',
  amendmentFee: 'Amendment fee',
  cancellationFee: 'Cancellation fee',
  amountPaid: 'Amount paid',
  additionalPremiumPaid: 'Additional premium paid',
  amountRefunded: 'Amount refunded',
  nothingPaid: 'Nothing paid or refunded',
  refundedPart: (part) => `${part} refunded`,
  deductedPart: (part) => `${part} deducted`,
  paidToDate: 'Total paid to date',
  countryOfResidence: 'Country of residence',
  contacts: 'Contacts',
  emergency: 'Emergency assistance',
  claims: 'Claims',
  portal: 'Your policy online',
  pds: 'Product disclosure statement',
  cancelledNotice: 'This policy is cancelled.',
  effectiveFrom: 'Cancelled with effect from',
  coverHasEnded: 'Cover has ended: there is no cover from that date.',
  coverWillEnd: 'Cover ends when that date begins: there is no cover from that date.',
  changes: 'Changes in this amendment',
  nowWas: (now, was) => `now ${now} (was ${was})`,
  destinationsAdded: 'Destinations added',
  destinationsRemoved: 'Destinations removed',
  travellersAdded: 'Travellers added',
  travellersRemoved: 'Travellers removed',
  dependentsAdded: 'Dependents added',
  dependentsRemoved: 'Dependents removed',
  optionsAdded: 'Options added',
  optionsRemoved: 'Options removed',
  itemsAdded: 'Specified items added',
  itemsRemoved: 'Specified items removed',
  noCoverChange: 'No change to the dates, destinations, travellers or options.',
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
  tax: 'Impuesto',
  amendmentFee: 'Cargo por modificación',
  cancellationFee: 'Cargo por cancelación',
  amountPaid: 'Importe pagado',
  additionalPremiumPaid: 'Prima adicional pagada',
  amountRefunded: 'Importe reembolsado',
  nothingPaid: 'Sin pagos ni reembolsos',
  refundedPart: (part) => `${part} (reembolso)`,
  deductedPart: (part) => `${part} (deducción)`,
  paidToDate: 'Total pagado a la fecha',
  countryOfResidence: 'País de residencia',
  contacts: 'Contactos',
  emergency: 'Asistencia de emergencia',
  claims: 'Reclamaciones',
  portal: 'Su póliza en línea',
  pds: 'Declaración de información del producto',
  cancelledNotice: 'Esta póliza está cancelada.',
  effectiveFrom: 'Cancelada con efecto desde',
  coverHasEnded: 'La cobertura ha terminado: no hay cobertura desde esa fecha.',
  coverWillEnd: 'La cobertura termina al comenzar esa fecha: no hay cobertura desde entonces.',
  changes: 'Cambios en esta modificación',
  nowWas: (now, was) => `ahora ${now} (antes ${was})`,
  destinationsAdded: 'Destinos añadidos',
  destinationsRemoved: 'Destinos eliminados',
  travellersAdded: 'Viajeros añadidos',
  travellersRemoved: 'Viajeros eliminados',
  dependentsAdded: 'Dependientes añadidos',
  dependentsRemoved: 'Dependientes eliminados',
  optionsAdded: 'Coberturas adicionales añadidas',
  optionsRemoved: 'Coberturas adicionales eliminadas',
  itemsAdded: 'Artículos declarados añadidos',
  itemsRemoved: 'Artículos declarados eliminados',
  noCoverChange: 'Sin cambios en las fechas, los destinos, los viajeros ni las coberturas adicionales.',
  none: 'Ninguno',
};

export const LABELS: Readonly<Record<DocumentLanguage, DocumentLabels>> = { en, es };

export const isDocumentLanguage = (value: string): value is DocumentLanguage =>
  (DOCUMENT_LANGUAGES as readonly string[]).includes(value);
