import type { NewOutboxMessage } from '../db/outbox/repository.js';

/**
 * The outbox messages that send a policy transaction's documents (kind `policy-documents`). The
 * key makes the e-mail's Message-ID, so a redelivery after a crash carries the same one.
 */
export const POLICY_DOCUMENTS = 'policy-documents';

/**
 * What the handler (delivery.ts) receives: the policy by number, or by its quote when the
 * number is only known inside the issuing statement (PostgreSQL renders it in SQL).
 */
export type PolicyDocumentsPayload =
  | { readonly quoteId: string; readonly sequenceNumber: number; readonly emailAddress?: undefined }
  | { readonly policyNumber: string; readonly sequenceNumber: number; readonly emailAddress?: string };

/** The purchase's e-mail: `policy-documents:<quoteId>:1` (one policy per quote). */
export function purchaseDocumentsMessage(quoteId: string, at: string): NewOutboxMessage {
  const payload: PolicyDocumentsPayload = { quoteId, sequenceNumber: 1 };
  return { key: `${POLICY_DOCUMENTS}:${quoteId}:1`, kind: POLICY_DOCUMENTS, payload, at };
}

/** An amendment's or cancellation's e-mail: `policy-documents:<policyNumber>:<sequenceNumber>`. */
export function changeDocumentsMessage(policyNumber: string, sequenceNumber: number, at: string): NewOutboxMessage {
  const payload: PolicyDocumentsPayload = { policyNumber, sequenceNumber };
  return { key: `${POLICY_DOCUMENTS}:${policyNumber}:${String(sequenceNumber)}`, kind: POLICY_DOCUMENTS, payload, at };
}

const RESEND = ':resend:';

/** A partner's resend, told by its key (so messages queued before the e-mail said so are told too). */
export const isResendKey = (key: string): boolean => key.includes(RESEND);

/** A partner's resend: a new key every time (`…:resend:<uuid>`), optionally to another address. */
export function resendDocumentsMessage(
  resend: { policyNumber: string; sequenceNumber: number; emailAddress?: string; id: string },
  at: string,
): NewOutboxMessage {
  const { policyNumber, sequenceNumber, emailAddress, id } = resend;
  const payload: PolicyDocumentsPayload = {
    policyNumber,
    sequenceNumber,
    ...(emailAddress === undefined ? {} : { emailAddress }),
  };
  return {
    key: `${POLICY_DOCUMENTS}:${policyNumber}:${String(sequenceNumber)}${RESEND}${id}`,
    kind: POLICY_DOCUMENTS,
    payload,
    at,
  };
}
