import { Type, type Static } from 'typebox';
import { pdfAnswer } from '../http/schemas.js';
import { PolicyParams } from '../policies/schemas.js';
import { DOCUMENT_KINDS } from './certificate.js';

/** TypeBox shapes of the documents routes; descriptions become the OpenAPI text partners read. */

export const DocumentKindSchema = Type.Enum([...DOCUMENT_KINDS], {
  type: 'string',
  description:
    '`CERTIFICATE`: certificate of insurance of a purchase or an amendment (the cover as it stands after it); `CANCELLATION_NOTICE`: the notice of a cancellation, with its refund.',
});

export const PolicyDocumentSummary = Type.Object(
  {
    documentId: Type.String({ format: 'uuid', description: 'Id of the document; fetch its PDF with it.' }),
    kind: DocumentKindSchema,
    sequenceNumber: Type.Integer({
      minimum: 1,
      description: 'The policy transaction (1 = purchase) the document is for; each keeps its own documents.',
    }),
    language: Type.String({
      description: "Language of the document's text (`en`, `es`): one document per language the brand offers.",
    }),
    fileName: Type.String({ description: 'Suggested file name, e.g. `certificate-TIAU260000042-1-en.pdf`.' }),
    createdAt: Type.String({ description: 'Instant of the transaction the document is for, UTC ISO 8601.' }),
    sizeBytes: Type.Integer({ minimum: 1, description: 'Size of the PDF in bytes.' }),
  },
  {
    title: 'PolicyDocumentSummary',
    description: 'One kept policy document (a PDF rendered once, answered byte for byte ever after).',
  },
);

export const PolicyDocumentList = Type.Object(
  {
    documents: Type.Array(PolicyDocumentSummary, {
      description: 'Documents of every transaction of the policy, oldest transaction first.',
    }),
  },
  { title: 'PolicyDocumentList' },
);
export type PolicyDocumentList = Static<typeof PolicyDocumentList>;

export const PolicyDocumentParams = Type.Object({
  ...PolicyParams.properties,
  documentId: Type.String({ maxLength: 64, description: "A `documentId` from the policy's document list." }),
});

/** A policy document's PDF, as `sendPdf` (routes.ts) answers it. */
export const PdfAnswer = pdfAnswer('The PDF document.', 'attachment', {
  'X-Content-Type-Options': { type: 'string', enum: ['nosniff'], description: 'Browsers keep it a PDF.' },
});

export const DocumentLinkParams = Type.Object({
  policyDocumentAccessGuid: Type.String({
    description:
      "The policy's `policyDocumentAccessGuid` (policy summary): a secret of at least 128 bits that works as the customer's key to the documents.",
  }),
});

export const DocumentLinkFileParams = Type.Object({
  ...DocumentLinkParams.properties,
  documentId: Type.String({ description: 'A document id from the link page.' }),
});

export const DocumentLinkQuery = Type.Object({
  lang: Type.Optional(
    Type.String({
      maxLength: 35,
      description:
        "The page's language, one the brand's documents are in (`en`, `es`); any other value (or none) gives the policy's language, the brand's default.",
    }),
  ),
});

export const HtmlAnswer = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

export const SendDocumentsBody = Type.Object(
  {
    emailAddress: Type.Optional(
      Type.String({
        maxLength: 254,
        pattern: '^[^\\s@<>()",;:\\\\]+@[^\\s@<>()",;:\\\\]+\\.[^\\s@<>()",;:\\\\]+$',
        description:
          "Send to this address instead of the primary traveller's (the policy is not changed). Omitted: the primary traveller's e-mail address.",
      }),
    ),
  },
  { title: 'SendDocumentsRequest', description: 'Optional; an empty or missing body sends to the policy holder.' },
);
export type SendDocumentsBody = Static<typeof SendDocumentsBody>;

export const SendDocumentsAnswer = Type.Object(
  {
    messageKey: Type.Optional(
      Type.String({
        description:
          'Key of the queued e-mail (`policy-documents:<policyNumber>:<sequenceNumber>:resend:<uuid>`): a new one per request, and the source of its Message-ID.',
      }),
    ),
    status: Type.Literal('QUEUED', {
      description:
        'Recorded for delivery: the delivery worker sends it within seconds, retrying with back-off (at least once, stable Message-ID). A policy without an e-mail address and no `emailAddress` given sends nothing.',
    }),
  },
  { title: 'SendDocumentsAnswer' },
);
export type SendDocumentsAnswer = Static<typeof SendDocumentsAnswer>;
