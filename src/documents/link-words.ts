import type { PolicyActionType } from '../policies/schemas-detail.js';
import type { DocumentLanguage } from './labels.js';

/** The words of the customer's pages, in every language a brand's documents may be in. */
export interface LinkWords {
  readonly title: string;
  readonly serviceName: string;
  readonly languages: string;
  readonly policy: string;
  readonly status: string;
  readonly active: string;
  readonly cancelled: string;
  readonly cancelledNotice: (lastDay: string) => string;
  readonly plan: string;
  readonly travellers: string;
  readonly trip: string;
  readonly destinations: string;
  readonly cover: string;
  readonly emergency: string;
  readonly documents: string;
  readonly transaction: string;
  readonly actions: Readonly<Record<PolicyActionType, string>>;
  readonly certificate: string;
  readonly cancellationNotice: string;
  readonly contact: string;
  readonly email: string;
  readonly portal: string;
  readonly claims: string;
  readonly expiredTitle: string;
  readonly expiredText: string;
  readonly notFoundTitle: string;
  readonly notFoundText: string;
}

const en: LinkWords = {
  title: 'Your policy documents',
  serviceName: 'Travel insurance',
  languages: 'Other languages',
  policy: 'Policy',
  status: 'Status',
  active: 'Active',
  cancelled: 'Cancelled',
  cancelledNotice: (lastDay) => `This policy has been cancelled. Its last day of cover was ${lastDay}.`,
  plan: 'Plan',
  travellers: 'Travellers',
  trip: 'Trip dates',
  destinations: 'Destinations',
  cover: 'Cover',
  emergency: 'Emergency assistance',
  documents: 'Documents',
  transaction: 'Transaction',
  actions: { Purchase: 'purchase', Amendment: 'change', Cancellation: 'cancellation' },
  certificate: 'Certificate of insurance',
  cancellationNotice: 'Cancellation notice',
  contact: 'Contact us',
  email: 'E-mail',
  portal: 'Your policy online',
  claims: 'Make a claim',
  expiredTitle: 'This link has expired',
  expiredText:
    'For your security, the link to your policy documents stops working some time after your cover ends. Contact us and we will send your documents again.',
  notFoundTitle: 'Not found',
  notFoundText:
    'This link does not open any policy documents. Check that you copied the whole link from your e-mail, or contact the insurer who sent it.',
};

const es: LinkWords = {
  title: 'Los documentos de su póliza',
  serviceName: 'Seguro de viaje',
  languages: 'Otros idiomas',
  policy: 'Póliza',
  status: 'Estado',
  active: 'Vigente',
  cancelled: 'Cancelada',
  cancelledNotice: (lastDay) => `Esta póliza ha sido cancelada. Su último día de cobertura fue el ${lastDay}.`,
  plan: 'Plan',
  travellers: 'Viajeros',
  trip: 'Fechas del viaje',
  destinations: 'Destinos',
  cover: 'Cobertura',
  emergency: 'Asistencia de emergencia',
  documents: 'Documentos',
  transaction: 'Transacción',
  actions: { Purchase: 'compra', Amendment: 'modificación', Cancellation: 'cancelación' },
  certificate: 'Certificado de seguro',
  cancellationNotice: 'Aviso de cancelación',
  contact: 'Contacto',
  email: 'Correo electrónico',
  portal: 'Su póliza en línea',
  claims: 'Presentar una reclamación',
  expiredTitle: 'Este enlace ha caducado',
  expiredText:
    'Por su seguridad, el enlace a los documentos de su póliza deja de funcionar un tiempo después de que termina la cobertura. Contáctenos y le enviaremos sus documentos de nuevo.',
  notFoundTitle: 'No encontrado',
  notFoundText:
    'Este enlace no abre ningún documento de póliza. Compruebe que copió el enlace completo de su correo electrónico o contacte con la aseguradora que se lo envió.',
};

export const LINK_WORDS: Readonly<Record<DocumentLanguage, LinkWords>> = { en, es };
