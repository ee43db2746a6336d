import type { PolicyActionType } from '../../policies/schemas-detail.js';

export type MailLanguage = 'en' | 'es';

/** The words of a policy e-mail around the brand's own content (EMAILDOC, EFOOTER). */
export interface MailWording {
  readonly subject: (policyNumber: string) => string;
  /** With the traveller's name; `undefined`: the name is not one a letter can be addressed to. */
  readonly greeting: (name: string | undefined) => string;
  readonly lead: Record<PolicyActionType, (policyNumber: string) => string>;
  readonly linkIntro: string;
  readonly linkText: string;
  readonly attachedTitle: string;
}

export const WORDING: Record<MailLanguage, MailWording> = {
  en: {
    subject: (n) => `Your travel insurance policy ${n}`,
    greeting: (name) => (name === undefined ? 'Dear customer,' : `Dear ${name},`),
    lead: {
      Purchase: (n) => `Thank you for buying travel insurance. Your policy number is ${n}.`,
      Amendment: (n) => `Your policy ${n} has been amended. Your updated certificate of insurance is attached.`,
      Cancellation: (n) => `Your policy ${n} has been cancelled. Your cancellation notice is attached.`,
    },
    linkIntro: 'You can also open your documents online at any time:',
    linkText: 'Your policy documents',
    attachedTitle: 'Attached',
  },
  es: {
    subject: (n) => `Su póliza de seguro de viaje ${n}`,
    greeting: (name) => (name === undefined ? 'Estimado/a cliente:' : `Estimado/a ${name}:`),
    lead: {
      Purchase: (n) => `Gracias por contratar su seguro de viaje. Su número de póliza es ${n}.`,
      Amendment: (n) => `Su póliza ${n} ha sido modificada. Adjuntamos su certificado de seguro actualizado.`,
      Cancellation: (n) => `Su póliza ${n} ha sido cancelada. Adjuntamos el aviso de cancelación.`,
    },
    linkIntro: 'También puede consultar sus documentos en línea en cualquier momento:',
    linkText: 'Los documentos de su póliza',
    attachedTitle: 'Adjuntos',
  },
};
