import type { FastifyBaseLogger } from 'fastify';
import type { BrandCatalogue } from '../catalogue/model.js';
import { selectPds } from '../catalogue/responses.js';
import { catalogueReaderFor, type CatalogueSnapshot } from '../catalogue/reader.js';
import type { AppContext, Clock } from '../context.js';
import type { Executor, Tx } from '../db/database.js';
import { documentsSentEvent } from '../events/data.js';
import { policyReferencesOf, recordEvent } from '../events/repository.js';
import { composePolicyEmail, type PolicyEmailInput } from './mail/compose.js';
import type { MailAttachment } from './mail/model.js';
import { policyEmailFacts } from './mail/policy-facts.js';
import { mailTransportFor, type MailTransport } from './mail/transport.js';
import type { OutboxMessage } from '../db/outbox/repository.js';
import type { OutboxKind } from '../db/outbox/kinds.js';
import { PolicyNotFound } from '../policies/errors.js';
import type { DetailRecord, PolicyRecord } from '../policies/model.js';
import { findPolicy } from '../policies/repository.js';
import { policyNumberOfQuote } from '../policies/repository-read.js';
import { brandFactsOf, documentLanguagesOf } from './brand-facts.js';
import { customerLinkUrl } from './document-facts.js';
import type { DocumentLanguage } from './labels.js';
import { policyScreeningsFor } from './live-ports.js';
import { isResendKey, POLICY_DOCUMENTS, type PolicyDocumentsPayload } from './messages.js';
import { documentFileOf, policyOwnerOf } from './repository.js';
import { ensureTransactionDocuments, type DocumentDeps } from './service.js';

/** What sending a transaction's documents needs: documents (with the link's base) and the mail transport. */
export interface DeliveryDeps extends DocumentDeps {
  readonly transport: MailTransport;
  readonly log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** When a sent e-mail's `documents.sent` happened (the server's clock; absent: now). */
  readonly clock?: Clock;
}

export function deliveryDepsOf(context: AppContext, log?: DeliveryDeps['log']): DeliveryDeps {
  return {
    db: context.db,
    catalogue: catalogueReaderFor(context.db),
    transport: mailTransportFor(context),
    linkBaseUrl: `${context.config.publicBaseUrl}${context.config.basePath}`,
    screenings: policyScreeningsFor(context),
    clock: context.clock,
    ...(log ? { log } : {}),
  };
}

/** The outbox handlers of this area, for `startOutboxWorker` (server.ts; tests run the same). */
export function documentDeliveryHandlers(deps: DeliveryDeps): Record<string, OutboxKind> {
  return {
    [POLICY_DOCUMENTS]: {
      deliver: (message) => deliverPolicyDocuments(deps, message),
      recordSent: (tx, message) => recordDocumentsSent(tx, message, (deps.clock?.() ?? new Date()).toISOString()),
    },
  };
}

/**
 * Sends one transaction's documents to the primary traveller (or the resend's address), worded
 * for the transaction or, for a partner's resend, as documents sent again (`policyEmailInputOf`).
 * The Message-ID derives from the outbox key: a redelivery after a crash carries the same one.
 * A policy whose traveller gave no e-mail address has nothing to send: the message completes.
 */
export async function deliverPolicyDocuments(deps: DeliveryDeps, message: OutboxMessage): Promise<void> {
  const payload = message.payload as PolicyDocumentsPayload;
  const policy = await policyOf(deps.db, payload);
  const { sequenceNumber } = payload;
  const detail = policy.details.find((d) => d.sequenceNumber === sequenceNumber);
  if (!detail) throw new PolicyNotFound(policy.policyNumber);
  const holder = detail.travellers.find((t) => t.isPrimary) ?? detail.travellers[0];
  const email = payload.emailAddress ?? holder?.emailAddress?.trim();
  const fields = { outboxKey: message.key, policyNumber: policy.policyNumber, sequenceNumber };
  if (!holder || !email) {
    deps.log?.info(fields, 'policy documents not sent: the primary traveller has no e-mail address');
    return;
  }
  const resend = isResendKey(message.key);
  const input = await policyEmailInputOf(deps, policy, detail, { messageKey: message.key, to: email, resend });
  await deps.transport.send(composePolicyEmail(input));
  deps.log?.info({ ...fields, resend }, 'policy documents sent');
}

/**
 * The e-mail of one transaction of `policy` to `to`, in `language` (a policy records none: the
 * brand's default). Attached: the transaction's certificate or cancellation notice and, while
 * the policy is in force, the plan's PDS (a cancelled policy's terms no longer apply).
 */
export async function policyEmailInputOf(
  deps: DeliveryDeps,
  policy: PolicyRecord,
  detail: DetailRecord,
  email: { readonly messageKey: string; readonly to: string; readonly resend: boolean; language?: DocumentLanguage },
): Promise<PolicyEmailInput> {
  const snapshot = await deps.catalogue.snapshot();
  const brand = snapshot.brands.get(policy.brandCode);
  if (!brand) throw new Error(`brand ${policy.brandCode} is not in the catalogue`);
  const language = email.language ?? documentLanguagesOf(brand)[0] ?? 'en';
  const documents = await ensureTransactionDocuments(deps, policy, detail.sequenceNumber);
  const certificate = documents.find((d) => d.language === language) ?? documents[0];
  const file = certificate && (await documentFileOf(deps.db, policy.id, certificate.documentId));
  if (!file) throw new Error('the transaction has no document');
  const holder = detail.travellers.find((t) => t.isPrimary) ?? detail.travellers[0];
  const attachments: MailAttachment[] = [
    { filename: file.fileName, contentType: 'application/pdf', content: file.content, document: { kind: file.kind } },
    ...(detail.actionType === 'Cancellation' ? [] : pdsAttachment(snapshot, brand, policy, detail, language)),
  ];
  return {
    messageKey: email.messageKey,
    resend: email.resend,
    language,
    brand: brandFactsOf(brand, language),
    policyNumber: policy.policyNumber,
    holder: { firstName: holder?.firstName ?? '', lastName: holder?.surname ?? '', email: email.to },
    ...policyEmailFacts(policy, detail),
    documentLinkUrl: customerLinkUrl(deps.linkBaseUrl, policy),
    attachments,
  };
}

/** The partner's `documents.sent`, committed with the SENT mark: only when an e-mail went out. */
export async function recordDocumentsSent(tx: Tx, message: OutboxMessage, at: string): Promise<void> {
  const payload = message.payload as PolicyDocumentsPayload;
  const policy = await policyOf(tx, payload);
  const detail = policy.details.find((d) => d.sequenceNumber === payload.sequenceNumber);
  const holder = detail && (detail.travellers.find((t) => t.isPrimary) ?? detail.travellers[0]);
  if (!detail || !(payload.emailAddress ?? holder?.emailAddress?.trim())) return;
  const sent = {
    messageKey: message.key,
    policyNumber: policy.policyNumber,
    brandCode: policy.brandCode,
    partnerId: policy.partnerId,
    sequenceNumber: detail.sequenceNumber,
    actionType: detail.actionType,
    toPartnerAddress: payload.emailAddress !== undefined,
  };
  await recordEvent(tx, { ...documentsSentEvent(sent, await policyReferencesOf(tx, policy.policyNumber)), at });
}

async function policyOf(db: Executor, payload: PolicyDocumentsPayload): Promise<PolicyRecord> {
  const policyNumber = 'quoteId' in payload ? await policyNumberOfQuote(db, payload.quoteId) : payload.policyNumber;
  const owner = policyNumber === undefined ? undefined : await policyOwnerOf(db, policyNumber);
  const policy = owner && policyNumber !== undefined && (await findPolicy(db, { policyNumber, ...owner }));
  // Enqueued in the commit that wrote the policy: missing means a defect, retried then FAILED.
  if (!policy) throw new PolicyNotFound(policyNumber ?? 'unknown');
  return policy;
}

/** The plan's PDS for the holder's home country, as imported with the catalogue; none when not kept. */
function pdsAttachment(
  snapshot: CatalogueSnapshot,
  brand: BrandCatalogue,
  policy: PolicyRecord,
  detail: DetailRecord,
  language: string,
): MailAttachment[] {
  const planId = policy.plan.planId;
  const contractId = brand.plans.find((p) => p.planId === planId)?.insuranceContractId;
  if (contractId === undefined) return [];
  const doc = selectPds(brand, contractId, {
    lang: language,
    countryCode: detail.address.countryCode.toUpperCase(),
    ...(detail.address.provinceCode ? { provinceCode: detail.address.provinceCode } : {}),
    planId,
  });
  const pds = snapshot.pds.get(`${String(contractId)}/${doc.key}`);
  if (!pds) return [];
  const document = { kind: 'PDS' as const, name: doc.name };
  return [{ filename: pds.filename, contentType: 'application/pdf', content: new Uint8Array(pds.content), document }];
}
