import { EVENT_KINDS, TYPED_EVENTS } from './schemas.js';
import { EVENT_TYPES } from './model.js';

/**
 * The OpenAPI 3.1 `webhooks` section: one operation per event type, the body each delivery
 * POSTs to a partner's endpoint. The same envelopes as the feed's items (schemas.ts).
 */

const SIGNING =
  'Signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under your endpoint secret; a space-separated list while a secret rotates). Reject a timestamp more than 5 minutes from your clock. Answer 2xx within the timeout; anything else is retried on the schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 Gone disables the endpoint.';

/** `webhooks` of the OpenAPI document: schemas carry titles, so they become named components. */
export function eventWebhooks(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          tags: ['events'],
          operationId: `on-${type}`,
          summary: EVENT_KINDS[type].summary,
          description: `${EVENT_KINDS[type].summary} ${SIGNING}`,
          // The receiver checks the signature, not a credential of ours.
          security: [],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: TYPED_EVENTS[type] },
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
