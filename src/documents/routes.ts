import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { principalOf } from '../auth/principal.js';
import { catalogueReaderFor } from '../catalogue/reader.js';
import type { AppContext } from '../context.js';
import { errorResponses } from '../http/error-responses.js';
import { idempotentRoute } from '../http/idempotency/hooks.js';
import { PolicyParams } from '../policies/schemas.js';
import { emptyBodyAsObject } from '../http/guards/empty-body.js';
import { policyScreeningsFor } from './live-ports.js';
import { requestDocumentsResend } from './resends.js';
import {
  PdfAnswer,
  PolicyDocumentList,
  PolicyDocumentParams,
  SendDocumentsAnswer,
  SendDocumentsBody,
} from './schemas.js';
import type { StoredDocumentFile } from './repository.js';
import { getPolicyDocument, listPolicyDocuments, type DocumentDeps } from './service.js';
import { PolicyNotFound } from '../policies/errors.js';
import { DocumentNotFound, DocumentResendLimited } from './errors.js';

const NOT_FOUND =
  '404 `POLICY_NOT_FOUND` when the number is unknown, belongs to another partner, or was sold under another brand than `{brandCode}` (the three are not told apart).';

export const documentDepsOf = (context: AppContext): DocumentDeps => ({
  db: context.db,
  catalogue: catalogueReaderFor(context.db),
  linkBaseUrl: `${context.config.publicBaseUrl}${context.config.basePath}`,
  screenings: policyScreeningsFor(context),
});

/** A kept PDF as a download; personal data, so no shared cache keeps it. */
export function sendPdf(reply: FastifyReply, file: StoredDocumentFile, cacheControl: string): FastifyReply {
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .send(Buffer.from(file.content));
}

/** The policy's documents for the partner that sold it (issue 20); registered inside the protected scope. */
export const documentsRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = (app, { context }) => {
  const deps = documentDepsOf(context);

  app.get(
    '/policies/v1/:brandCode/policies/:policyNumber/documents',
    {
      schema: {
        tags: ['policies'],
        operationId: 'listPolicyDocuments',
        summary: 'Policy documents',
        description: `The documents of every transaction of the policy: a certificate of insurance for the purchase and each amendment, a cancellation notice for a cancellation, one per language the brand offers. A document is rendered once and kept: fetching it again answers the same bytes. Same visibility as the policy summary. ${NOT_FOUND}`,
        params: PolicyParams,
        response: {
          200: PolicyDocumentList,
          ...errorResponses(400, 401, 403, new PolicyNotFound('BACAU260004217'), 429, 500),
        },
      },
    },
    async (request): Promise<PolicyDocumentList> => {
      const { partnerId } = principalOf(request);
      const documents = await listPolicyDocuments(deps, { ...request.params, partnerId });
      return {
        documents: documents.map(({ documentId, kind, sequenceNumber, language, fileName, createdAt, sizeBytes }) => ({
          documentId,
          kind,
          sequenceNumber,
          language,
          fileName,
          createdAt,
          sizeBytes,
        })),
      };
    },
  );

  app.get(
    '/policies/v1/:brandCode/policies/:policyNumber/documents/:documentId',
    {
      schema: {
        tags: ['policies'],
        operationId: 'getPolicyDocument',
        summary: 'One policy document (PDF)',
        description: `The PDF of one document of the list, byte for byte as first rendered. ${NOT_FOUND} 404 \`DOCUMENT_NOT_FOUND\` when the id is not one of this policy's documents.`,
        params: PolicyDocumentParams,
        response: { 200: PdfAnswer, ...errorResponses(400, 401, 403, new DocumentNotFound('CERTIFICATE-9'), 429, 500) },
      },
    },
    async (request, reply) => {
      const { partnerId } = principalOf(request);
      const { documentId, ...lookup } = request.params;
      const file = await getPolicyDocument(deps, { ...lookup, partnerId }, documentId);
      return sendPdf(reply, file, 'private, no-store');
    },
  );

  app.post(
    '/policies/v1/:brandCode/policies/:policyNumber/documents/send',
    {
      preValidation: [emptyBodyAsObject],
      // Optional: a retry with the same key replays the 202 instead of queuing a second e-mail.
      ...idempotentRoute({ scopeOf: (request) => `partner:${principalOf(request).partnerId}` }),
      schema: {
        tags: ['policies'],
        operationId: 'sendPolicyDocuments',
        summary: 'Send the policy documents again',
        description: `Queues an e-mail with the documents of the policy's latest transaction (certificate or cancellation notice, and the PDS) and the customer's document link, to the primary traveller or to \`emailAddress\`. Answers 202 once recorded; the delivery worker sends it (at least once, retried with back-off). Each request queues a new e-mail, unless it repeats an \`Idempotency-Key\` (then the first answer is replayed). At most \`DOCUMENT_RESENDS_PER_POLICY_PER_DAY\` (5) resends per policy per UTC day and \`DOCUMENT_RESENDS_PER_PARTNER_PER_HOUR\` (60) per partner per UTC hour: past either, 429 \`RATE_LIMITED\` with \`Retry-After\` (nothing queued). Each resend is recorded with the user who asked. ${NOT_FOUND}`,
        params: PolicyParams,
        body: SendDocumentsBody,
        response: {
          202: SendDocumentsAnswer,
          ...errorResponses(
            400,
            401,
            403,
            new PolicyNotFound('BACAU260004217'),
            new DocumentResendLimited('policy', 5, 3600),
            500,
          ),
        },
      },
    },
    async (request, reply): Promise<SendDocumentsAnswer> => {
      const { partnerId, userId } = principalOf(request);
      const { emailAddress } = request.body;
      const messageKey = await requestDocumentsResend(
        { db: context.db },
        { ...request.params, partnerId },
        {
          userId,
          ...(emailAddress === undefined ? {} : { emailAddress }),
          at: context.clock().toISOString(),
          limits: context.config.documents.resendLimits,
        },
      );
      reply.code(202);
      return { messageKey, status: 'QUEUED' };
    },
  );
  return Promise.resolve();
};
