import { WINDOW_SECONDS } from '../db/budgets/windows.js';
import { NotFound, RateLimited, spentBudgetHeaders } from '../kernel/errors.js';

/** A document id that is not one of this policy's documents (or not a document at all). */
export class DocumentNotFound extends NotFound {
  constructor(documentId: string) {
    super('DOCUMENT_NOT_FOUND', `Document '${documentId}' does not exist for this policy.`, {
      property: 'documentId',
      value: documentId,
    });
  }
}

/** A policy's, or a partner's, budget of document resends is spent until its window ends. */
export class DocumentResendLimited extends RateLimited {
  constructor(scope: 'policy' | 'partner', limit: number, retryAfterSeconds: number) {
    const window = scope === 'policy' ? 'this policy per UTC day' : 'this partner per UTC hour';
    super(
      `The documents may be resent at most ${limit} times for ${window}; retry after ${retryAfterSeconds} s.`,
      spentBudgetHeaders(
        scope === 'policy'
          ? { name: 'resends-policy', quota: limit, windowSeconds: WINDOW_SECONDS.day }
          : { name: 'resends-partner', quota: limit, windowSeconds: WINDOW_SECONDS.hour },
        retryAfterSeconds,
      ),
    );
  }
}
