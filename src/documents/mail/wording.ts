import type { DocumentKind } from '../certificate.js';
import type { PolicyActionType } from '../../policies/schemas-detail.js';

export type MailLanguage = 'en' | 'es';

/** Why an e-mail is sent: a transaction of the policy, or a partner's request to send its documents again. */
export type MailOccasion = PolicyActionType | 'Resend';

/** The words of a policy e-mail around the brand's own content (EMAILDOC, EMERGENCYPHONE, EFOOTER). */
export interface MailWording {
  /**
   * The Intl locale of dates and amounts: a long date writes the month out, so no reader takes
   * 10/12 for 12 October (en-GB's day-month order reads the same in every English-speaking market).
   */
  readonly locale: string;
  /** Also the e-mail's heading: what happened, told before it is opened. */
  readonly subject: Record<MailOccasion, (policyNumber: string) => string>;
  /** With the traveller's name; `undefined`: the name is not one a letter can be addressed to. */
  readonly greeting: (name: string | undefined) => string;
  /** The first paragraph; it never says a document is attached (the attachment list does). */
  readonly lead: Record<MailOccasion, (policyNumber: string) => string>;
  /** A resend says where the policy stands after its latest transaction. */
  readonly standing: Record<PolicyActionType, string>;
  readonly tripDates: string;
  /** A cover period of plain dates, in the policy's zone. */
  readonly dateRange: (from: string, to: string, timeZone: string) => string;
  readonly cancelledOn: string;
  readonly travellers: string;
  /** Stands for a traveller whose name is not a personal name (see compose.ts). */
  readonly traveller: (position: number) => string;
  readonly amountPaid: string;
  readonly amountRefunded: string;
  readonly amount: string;
  readonly nothingPaidOrRefunded: string;
  readonly paidToDate: string;
  readonly emergency: string;
  readonly linkIntro: string;
  readonly linkText: string;
  readonly attachedTitle: (count: number) => string;
  readonly documentName: Record<DocumentKind, string>;
}

export const WORDING: Record<MailLanguage, MailWording> = {
  en: {
    locale: 'en-GB',
    subject: {
      Purchase: (n) => `Your travel insurance policy ${n} is confirmed`,
      Amendment: (n) => `Your travel insurance policy ${n} has been changed`,
      Cancellation: (n) => `Your travel insurance policy ${n} has been cancelled`,
      Resend: (n) => `Your documents for policy ${n}`,
    },
    greeting: (name) => (name === undefined ? 'Dear customer,' : `Dear ${name},`),
    lead: {
      Purchase: (n) => `Thank you for buying travel insurance. Your policy ${n} is confirmed.`,
      Amendment: (n) => `Your policy ${n} has been changed as you asked. Here is your cover as it now stands.`,
      Cancellation: (n) => `Your policy ${n} has been cancelled as you asked.`,
      Resend: (n) => `As requested, here are the documents of your policy ${n}.`,
    },
    standing: {
      Purchase: 'Your policy is in force.',
      Amendment: 'Your policy is in force, as last changed.',
      Cancellation: 'This policy has been cancelled.',
    },
    tripDates: 'Trip dates',
    dateRange: (from, to, zone) => `${from} to ${to} (${zone} time)`,
    cancelledOn: 'Cancelled on',
    travellers: 'Travellers',
    traveller: (position) => `Traveller ${String(position)}`,
    amountPaid: 'Amount paid',
    amountRefunded: 'Amount refunded',
    amount: 'Amount',
    nothingPaidOrRefunded: 'nothing paid or refunded',
    paidToDate: 'Total paid for this policy',
    emergency: 'In an emergency',
    linkIntro: 'You can open your documents online at any time:',
    linkText: 'Open your policy documents',
    attachedTitle: (count) => (count === 1 ? 'Attached to this e-mail' : `Attached to this e-mail (${String(count)})`),
    documentName: { CERTIFICATE: 'Certificate of insurance', CANCELLATION_NOTICE: 'Cancellation notice' },
  },
  es: {
    locale: 'es-ES',
    subject: {
      Purchase: (n) => `Su póliza de seguro de viaje ${n} está confirmada`,
      Amendment: (n) => `Su póliza de seguro de viaje ${n} ha sido modificada`,
      Cancellation: (n) => `Su póliza de seguro de viaje ${n} ha sido cancelada`,
      Resend: (n) => `Sus documentos de la póliza ${n}`,
    },
    greeting: (name) => (name === undefined ? 'Estimado/a cliente:' : `Estimado/a ${name}:`),
    lead: {
      Purchase: (n) => `Gracias por contratar su seguro de viaje. Su póliza ${n} está confirmada.`,
      Amendment: (n) => `Su póliza ${n} ha sido modificada según nos pidió. Esta es su cobertura actual.`,
      Cancellation: (n) => `Su póliza ${n} ha sido cancelada según nos pidió.`,
      Resend: (n) => `Como nos pidió, le enviamos los documentos de su póliza ${n}.`,
    },
    standing: {
      Purchase: 'Su póliza está en vigor.',
      Amendment: 'Su póliza está en vigor, con su última modificación.',
      Cancellation: 'Esta póliza ha sido cancelada.',
    },
    tripDates: 'Fechas del viaje',
    dateRange: (from, to, zone) => `del ${from} al ${to} (hora de ${zone})`,
    cancelledOn: 'Cancelada el',
    travellers: 'Viajeros',
    traveller: (position) => `Viajero ${String(position)}`,
    amountPaid: 'Importe pagado',
    amountRefunded: 'Importe reembolsado',
    amount: 'Importe',
    nothingPaidOrRefunded: 'nada pagado ni reembolsado',
    paidToDate: 'Total pagado por esta póliza',
    emergency: 'En caso de emergencia',
    linkIntro: 'Puede consultar sus documentos en línea en cualquier momento:',
    linkText: 'Abrir los documentos de su póliza',
    attachedTitle: (count) => (count === 1 ? 'Adjunto a este correo' : `Adjuntos a este correo (${String(count)})`),
    documentName: { CERTIFICATE: 'Certificado de seguro', CANCELLATION_NOTICE: 'Aviso de cancelación' },
  },
};
