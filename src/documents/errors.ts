import { NotFound } from '../kernel/errors.js';

/** A document id that is not one of this policy's documents (or not a document at all). */
export class DocumentNotFound extends NotFound {
  constructor(documentId: string) {
    super('DOCUMENT_NOT_FOUND', `Document '${documentId}' does not exist for this policy.`, {
      property: 'documentId',
      value: documentId,
    });
  }
}
