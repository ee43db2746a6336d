import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/database.js';
import { PolicyAlreadyIssued } from '../../src/policies/errors.js';
import type { PolicyIssueRequest } from '../../src/policies/issue-request.js';
import { prepareIssue } from '../../src/policies/service.js';
import { issuePurchase } from '../../src/purchases/commits.js';
import type { NewPurchase } from '../../src/purchases/model.js';
import { insertPurchase, startedPurchase } from '../../src/purchases/repository.js';
import { findQuote, insertQuote } from '../../src/quotes/repository.js';
import type { QuoteRecord } from '../../src/quotes/stored-quote.js';

/** A policy as the issuing commit wrote it, with its rows' ids (for tests that read the tables). */
export interface IssuedPolicy {
  readonly policyNumber: string;
  readonly policyDetailNumber: string;
  readonly policyDocumentAccessGuid: string;
  readonly issuedAt: string;
  readonly policyHeaderId: number;
  readonly policyDetailId: number;
}

/** The least a stored quote holds: the issuing commit reads only its flags. */
function quoteRecord(request: PolicyIssueRequest, at: string): QuoteRecord {
  const user = { userId: request.createdByUserId, username: 'fixture' };
  return {
    stage: 'PAYMENT',
    customerUserId: request.customerUserId,
    input: { quoteType: request.plan.isAnnualMultiTrip ? 'ANNUALMULTITRIP' : 'SINGLETRIP' } as QuoteRecord['input'],
    pricing: { priceResults: [], prices: [] },
    validation: { isValid: true, errors: [] },
    pricedVersion: 'fixture',
    hasConfigChanged: false,
    evaluatedAt: at,
    audit: {
      createdAt: at,
      updatedAt: at,
      createdByUserId: user.userId,
      createdByUsername: user.username,
      updatedByUserId: user.userId,
      updatedByUsername: user.username,
    },
  };
}

/** Stores the quote `request` buys (unbought). */
export async function storeQuoteOf(db: Db, request: PolicyIssueRequest, at: string): Promise<void> {
  await insertQuote(db, {
    ...quoteRecord(request, at),
    id: request.quoteId,
    brandCode: request.brandCode,
    partnerId: request.partnerId,
    partnerCode: 'FIXTURE',
  });
}

/**
 * Issues `request` through the production issuing commit (purchases/commits.ts), as a purchase
 * approved at `now` would: its quote (stored first unless it exists) and a STARTED purchase
 * recorded, then the commit. A quote that has its policy already refuses another
 * (PolicyAlreadyIssued), and the refused commit takes no number.
 */
export async function issuePolicyOf(db: Db, request: PolicyIssueRequest, now: Date): Promise<IssuedPolicy> {
  const at = now.toISOString();
  const issue = prepareIssue(request, now);
  if (!(await findQuote(db, request.quoteId, request.brandCode, request.partnerId)))
    await storeQuoteOf(db, request, at);
  const recorded: NewPurchase = {
    id: randomUUID(),
    quoteId: request.quoteId,
    brandCode: request.brandCode,
    partnerId: request.partnerId,
    userId: request.createdByUserId,
    amountMinor: request.amounts.total,
    currency: request.plan.currency.code,
    paymentMethod: request.paymentMethod ?? 'CARD',
    cardToken: 'tok_fixture',
    issueRequest: request,
    at,
  };
  await insertPurchase(db, recorded);
  const patch =
    request.paymentReference !== undefined
      ? { paymentId: request.paymentReference, paymentResult: 'APPROVED' }
      : { paymentResult: 'APPROVED' };
  const outcome = await issuePurchase(db, {
    purchase: startedPurchase(recorded),
    from: ['STARTED'],
    patch,
    request,
    issue,
    at,
  });
  if (!outcome.issued?.policyNumber) throw new PolicyAlreadyIssued(request.quoteId);
  const policyNumber = outcome.issued.policyNumber;
  const ids = await db
    .selectFrom('policy_header')
    .innerJoin('policy_detail', 'policy_detail.policy_header_id', 'policy_header.id')
    .select([
      'policy_header.id as headerId',
      'policy_detail.id as detailId',
      'policy_detail.policy_detail_number as detailNumber',
    ])
    .where('policy_header.policy_number', '=', policyNumber)
    .executeTakeFirstOrThrow();
  return {
    policyNumber,
    policyDetailNumber: ids.detailNumber,
    policyDocumentAccessGuid: issue.policyDocumentAccessGuid,
    issuedAt: issue.issuedAt,
    policyHeaderId: ids.headerId,
    policyDetailId: ids.detailId,
  };
}
