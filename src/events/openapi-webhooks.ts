import { Type, type TSchema } from 'typebox';
import type { EventType } from './model.js';
import { eventEnvelope } from './schemas.js';
import {
  DocumentsSentData,
  PaymentEventData,
  PolicyEventData,
  PurchaseDeclinedData,
  WebhookTestData,
} from './schemas-data.js';

/**
 * The OpenAPI 3.1 `webhooks` section: one operation per event type, the body each delivery
 * POSTs to a partner's endpoint. Built from the same schemas as the feed.
 */

const SIGNING =
  'Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.';

const TYPES: Record<EventType, { title: string; summary: string; data: TSchema }> = {
  'policy.issued': { title: 'PolicyIssuedEvent', summary: 'A purchase issued a policy.', data: PolicyEventData },
  'policy.amended': { title: 'PolicyAmendedEvent', summary: 'An amendment was applied.', data: PolicyEventData },
  'policy.cancelled': { title: 'PolicyCancelledEvent', summary: 'The policy was cancelled.', data: PolicyEventData },
  'payment.captured': {
    title: 'PaymentCapturedEvent',
    summary: "A purchase's or an amendment's charge was captured.",
    data: PaymentEventData,
  },
  'payment.refunded': {
    title: 'PaymentRefundedEvent',
    summary: "A change's refund went back to the policy's payments.",
    data: PaymentEventData,
  },
  'purchase.declined': {
    title: 'PurchaseDeclinedEvent',
    summary: 'A purchase was declined by the card issuer.',
    data: PurchaseDeclinedData,
  },
  'documents.sent': {
    title: 'DocumentsSentEvent',
    summary: "A transaction's documents were e-mailed.",
    data: DocumentsSentData,
  },
  'webhook.test': { title: 'WebhookTestEvent', summary: 'A test event you asked for.', data: WebhookTestData },
};

/** `webhooks` of the OpenAPI document: schemas carry titles, so they become named components. */
export function eventWebhooks(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(TYPES).map(([type, { title, summary, data }]) => [
      type,
      {
        post: {
          tags: ['events'],
          operationId: `on-${type}`,
          summary,
          description: `${summary} ${SIGNING}`,
          // The receiver checks the signature, not a credential of ours.
          security: [],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: eventEnvelope(title, data, `The \`${type}\` event as delivered.`, Type.Literal(type)),
              },
            },
          },
          responses: {
            '200': { description: 'Received (any 2xx). Deduplicate on `webhook-id`: delivery is at least once.' },
            '410': { description: 'Gone: the endpoint is disabled and gets no further deliveries.' },
          },
        },
      },
    ]),
  );
}
