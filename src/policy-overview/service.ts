import { findPartnerById } from '../auth/repository.js';
import type { Executor } from '../db/database.js';
import { messagesByKeys, type OutboxMessage } from '../db/outbox/repository.js';
import { documentFileOf, documentsOf, type StoredDocumentFile } from '../documents/repository.js';
import { resendsOf } from '../documents/repository-resends.js';
import { isResendKey, POLICY_DOCUMENTS, type PolicyDocumentsPayload } from '../documents/messages.js';
import { eventsOfPolicy } from '../events/repository.js';
import { attemptsOfEvent } from '../events/webhooks/repository-attempts.js';
import { may, type Operator } from '../operators/model.js';
import type { PolicyRecord } from '../policies/model.js';
import { findPolicy } from '../policies/repository-read.js';
import { transactionRef } from '../policies/repository-transaction-ref.js';
import { policyOwnerOf } from '../documents/repository.js';
import { notesOfPolicy, listReasons } from '../policy-notes/repository.js';
import type { ScreeningOnPolicy } from '../screening/model.js';
import type { PolicyEmail, PolicyOverview } from './model.js';

export type { PolicyOverview, PolicyEmail, PolicyEventView } from './model.js';

/** What the policy page reads: the database, and the policy's screenings (health data, opened on demand). */
export interface PolicyOverviewDeps {
  readonly db: Executor;
  readonly screeningsOf: (quoteId: string, references: readonly string[]) => Promise<readonly ScreeningOnPolicy[]>;
}

/** `ada@example.com` → `a•••@example.com`: enough to tell addresses apart on a screen, not to copy one. */
export function maskedAddress(address: string | undefined): string {
  if (!address) return '—';
  const at = address.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${address.slice(0, 1)}•••${address.slice(at)}`;
}

/** A policy by number, for an operator (any partner, any brand); undefined when no policy has it. */
async function policyOf(db: Executor, policyNumber: string): Promise<PolicyRecord | undefined> {
  const owner = await policyOwnerOf(db, policyNumber);
  return owner && findPolicy(db, { policyNumber, ...owner });
}

function emailOf(policy: PolicyRecord, message: OutboxMessage): PolicyEmail {
  const payload = message.payload as PolicyDocumentsPayload;
  const detail = policy.details.find((d) => d.sequenceNumber === payload.sequenceNumber);
  const primary = detail?.travellers.find((t) => t.isPrimary);
  return {
    sequenceNumber: payload.sequenceNumber,
    kind: isResendKey(message.key) ? 'Resend' : 'Documents',
    to: maskedAddress(payload.emailAddress ?? primary?.emailAddress),
    state: message.state,
    attempts: message.attempts,
    ...(message.lastError === undefined ? {} : { lastError: message.lastError }),
    createdAt: message.createdAt,
    ...(message.sentAt === undefined ? {} : { sentAt: message.sentAt }),
  };
}

/** The e-mails of a policy's documents: each transaction's, by their keys, and every resend's. */
async function emailsOf(db: Executor, policy: PolicyRecord): Promise<PolicyEmail[]> {
  const keys = policy.details.map((d) =>
    d.sequenceNumber === 1
      ? `${POLICY_DOCUMENTS}:${policy.quoteId}:1`
      : `${POLICY_DOCUMENTS}:${policy.policyNumber}:${String(d.sequenceNumber)}`,
  );
  const resends = await resendsOf(db, policy.policyNumber);
  const messages = await messagesByKeys(db, [...keys, ...resends.map((r) => r.messageKey)]);
  return messages.map((m) => emailOf(policy, m));
}

/**
 * Everything about a policy an operator's page shows; undefined when no policy has that number.
 * Screening conditions (health data) are read only for a role that may read them.
 */
export async function policyOverview(
  deps: PolicyOverviewDeps,
  operator: Operator,
  policyNumber: string,
): Promise<PolicyOverview | undefined> {
  const { db } = deps;
  const policy = await policyOf(db, policyNumber);
  if (!policy) return undefined;
  const [partner, notes, reasons, documents, emails, events] = await Promise.all([
    findPartnerById(db, policy.partnerId),
    notesOfPolicy(db, policy.id),
    listReasons(db),
    documentsOf(db, policy.id),
    emailsOf(db, policy),
    eventsOfPolicy(db, policy.policyNumber),
  ]);
  const withDeliveries = await Promise.all(
    events.map(async (event) => ({ event, deliveries: await attemptsOfEvent(db, event.id) })),
  );
  const references = policy.details
    .flatMap((d) => [...d.travellers, ...d.dependents])
    .flatMap((p) => (p.travelClear?.tamisReferenceNumber ? [p.travelClear.tamisReferenceNumber] : []));
  const screenings = may(operator, 'screening.conditions.read')
    ? await deps.screeningsOf(policy.quoteId, [...new Set(references)])
    : undefined;
  return {
    policy,
    partnerCode: partner?.code ?? String(policy.partnerId),
    notes,
    reasons,
    documents,
    emails,
    events: withDeliveries,
    ...(screenings === undefined ? {} : { screenings }),
  };
}

/** One of a policy's documents with its bytes, for an operator; undefined when either is unknown. */
export async function policyDocument(
  db: Executor,
  policyNumber: string,
  documentId: string,
): Promise<StoredDocumentFile | undefined> {
  const ref = await transactionRef(db, policyNumber);
  return ref && documentFileOf(db, ref.policyHeaderId, documentId);
}
