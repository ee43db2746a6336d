import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { principalOf } from '../auth/principal.js';
import { catalogueReaderFor } from '../catalogue/reader.js';
import type { AppContext } from '../context.js';
import { errorResponses } from '../http/schemas.js';
import { PolicyParams } from '../policies/schemas.js';
import { PdfAnswer, PolicyDocumentList, PolicyDocumentParams } from './schemas.js';
import type { StoredDocumentFile } from './repository.js';
import { getPolicyDocument, listPolicyDocuments, type DocumentDeps } from './service.js';

const NOT_FOUND =
  '404 `POLICY_NOT_FOUND` when the number is unknown, belongs to another partner, or was sold under another brand than `{brandCode}` (the three are not told apart).';

export const documentDepsOf = (context: AppContext): DocumentDeps => ({
  db: context.db,
  catalogue: catalogueReaderFor(context.db),
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
        response: { 200: PolicyDocumentList, ...errorResponses(400, 401, 403, 404, 429, 500) },
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
        produces: ['application/pdf'],
        response: { 200: PdfAnswer, ...errorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request, reply) => {
      const { partnerId } = principalOf(request);
      const { documentId, ...lookup } = request.params;
      const file = await getPolicyDocument(deps, { ...lookup, partnerId }, documentId);
      return sendPdf(reply, file, 'private, no-store');
    },
  );
  return Promise.resolve();
};
