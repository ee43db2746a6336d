import type { PolicyEmailInput } from '../../src/documents/mail/compose.js';

/** A small valid PDF's worth of bytes, every byte value included so corruption shows. */
export const PDF_BYTES = new Uint8Array([
  ...Buffer.from('%PDF-1.7\n'),
  ...Array.from({ length: 256 }, (_, i) => i),
  ...Buffer.from('\n%%EOF\n'),
]);

export const NOMAD_EN: Record<string, string> = {
  EMAILREPLYTOANDFROM: 'Nomad Global <hello@nomad.example>',
  EMAILDOC: 'Your policy documents are attached. Keep them with you while you travel.',
  EFOOTER: 'Nomad Global Travel Insurance is underwritten by Meridian Global Insurance SE.',
  EMERGENCYPHONE: '24/7 emergency assistance: +44 20 3000 4000',
};

export const NOMAD_ES: Record<string, string> = {
  EMAILREPLYTOANDFROM: 'Nomad Global <hola@nomad.example>',
  EMAILDOC: 'Adjuntamos los documentos de su póliza. Llévelos consigo durante el viaje.',
  EFOOTER: 'El seguro de viaje Nomad Global está suscrito por Meridian Global Insurance SE.',
  EMERGENCYPHONE: 'Asistencia de emergencia 24/7: +44 20 3000 4000',
};

export function emailInput(overrides: Partial<PolicyEmailInput> = {}): PolicyEmailInput {
  return {
    messageKey: 'policy-documents:12:1',
    kind: 'Purchase',
    resend: false,
    language: 'en',
    brand: { code: 'nomad', name: 'Nomad Global', content: NOMAD_EN },
    policyNumber: 'NMD-000123',
    holder: { firstName: 'Ana', lastName: 'Pérez', email: 'ana@example.com' },
    trip: { departureDate: '2026-12-10', coverEndDate: '2026-12-23', timeZone: 'America/New_York' },
    transactionAt: '2026-11-22T03:30:00.000Z',
    travellers: [
      { firstName: 'Ana', lastName: 'Pérez' },
      { firstName: 'Luis', lastName: 'Pérez' },
    ],
    money: { currencyCode: 'USD', minorDigits: 2, transactionMinor: 12345, paidToDateMinor: 12345 },
    documentLinkUrl: 'https://api.example/documents/v1/abcDEF_123-xyz',
    attachments: [
      {
        filename: 'certificate-NMD-000123-1.pdf',
        contentType: 'application/pdf',
        content: PDF_BYTES,
        document: { kind: 'CERTIFICATE' },
      },
      {
        filename: 'pds.pdf',
        contentType: 'application/pdf',
        content: PDF_BYTES.slice(0, 64),
        document: { kind: 'PDS', name: 'Policy Wording 2026' },
      },
    ],
    ...overrides,
  };
}
