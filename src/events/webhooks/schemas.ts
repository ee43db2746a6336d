import { Type, type Static } from 'typebox';
import { EVENT_TYPES } from '../model.js';
import { BrandParams } from '../../http/schemas.js';
import { DISABLED_REASONS } from './model.js';

/** TypeBox shapes of the webhook endpoint routes; descriptions become the OpenAPI text partners read. */

const EventTypeName = Type.Enum([...EVENT_TYPES], {
  type: 'string',
  description: 'An event type (see the `webhooks` section of this document for each payload).',
});

const EventTypes = Type.Array(EventTypeName, {
  maxItems: EVENT_TYPES.length,
  description:
    'The event types this endpoint receives; empty or omitted: every type. `webhook.test` always reaches it.',
});

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Where events are POSTed. Production: `https` only, no user or password in the URL, and the host must resolve to public addresses only (loopback, private, link-local, unique-local, CGNAT, metadata and reserved addresses are refused, 400 `WEBHOOK_URL_REFUSED`). Staging also allows `http` and loopback (`http://127.0.0.1:…`, `http://localhost:…`).',
});

const Description = Type.String({ maxLength: 200, description: 'Your note about the endpoint.' });

const utc = (what: string) => Type.String({ description: `${what}, UTC ISO 8601.` });

const WEBHOOK_ID_EXAMPLE = 'whe_3q2Rk7d0Tq6mYb8FvX1aLw';

export const WebhookParams = Type.Object({
  ...BrandParams.properties,
  webhookId: Type.String({ maxLength: 64, description: 'The endpoint id (`whe_…`).', examples: [WEBHOOK_ID_EXAMPLE] }),
});

export const WebhookEndpointSchema = Type.Object(
  {
    webhookId: Type.String({ description: 'Id of the endpoint: `whe_` + 22 base64url characters.' }),
    url: Type.String({ description: 'Where events are POSTed.' }),
    description: Type.Optional(Description),
    eventTypes: EventTypes,
    enabled: Type.Boolean({ description: 'False: nothing is delivered to it (events stay in the pull feed).' }),
    disabledReason: Type.Optional(
      Type.Enum([...DISABLED_REASONS], {
        type: 'string',
        description:
          'Why it is disabled: `GONE` the receiver answered 410; `FAILING` no delivery succeeded for WEBHOOK_DISABLE_AFTER_DAYS (5 days); `PARTNER` you disabled it. Re-enable with PATCH `{ "enabled": true }`.',
      }),
    ),
    disabledAt: Type.Optional(utc('When it was disabled')),
    failingSince: Type.Optional(utc('The first failed delivery since the last success; absent while healthy')),
    previousSecretExpiresAt: Type.Optional(
      utc('After a rotation: until then deliveries carry a second signature with the previous secret'),
    ),
    createdAt: utc('Created'),
    updatedAt: utc('Last changed'),
  },
  {
    title: 'WebhookEndpoint',
    description: 'A webhook endpoint of the partner under this brand (its signing secret is never shown again).',
    examples: [
      {
        webhookId: WEBHOOK_ID_EXAMPLE,
        url: 'https://partner.example/hooks/insurance',
        eventTypes: ['policy.issued', 'policy.cancelled'],
        enabled: true,
        createdAt: '2026-11-28T09:00:00.000Z',
        updatedAt: '2026-11-28T09:00:00.000Z',
      },
    ],
  },
);
export type WebhookEndpointSchema = Static<typeof WebhookEndpointSchema>;

const Secret = Type.String({
  description:
    'The signing secret, `whsec_` + base64 of 32 random bytes: shown only in this answer (store it now). Verify deliveries with it (Standard Webhooks).',
  examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+Jm0s1V5pVI='],
});

export const WebhookEndpointCreated = Type.Object(
  { ...WebhookEndpointSchema.properties, secret: Secret },
  { title: 'WebhookEndpointCreated', description: 'The new endpoint, with its signing secret (shown once).' },
);
export type WebhookEndpointCreated = Static<typeof WebhookEndpointCreated>;

export const WebhookEndpointList = Type.Object(
  { webhooks: Type.Array(WebhookEndpointSchema, { description: 'Endpoints, oldest first (at most 20).' }) },
  { title: 'WebhookEndpointList' },
);
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

export const CreateWebhookBody = Type.Object(
  {
    url: Url,
    eventTypes: Type.Optional(EventTypes),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true.' })),
  },
  {
    title: 'CreateWebhookRequest',
    examples: [{ url: 'https://partner.example/hooks/insurance', eventTypes: ['policy.issued'] }],
  },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    eventTypes: Type.Optional(EventTypes),
    description: Type.Optional(Type.Union([Description, Type.Null()], { description: 'null clears it.' })),
    enabled: Type.Optional(
      Type.Boolean({
        description:
          'false disables it (reason `PARTNER`); true re-enables it and clears `disabledReason` and `failingSince`.',
      }),
    ),
  },
  {
    title: 'UpdateWebhookRequest',
    description: 'Only the properties sent change.',
    examples: [{ enabled: true }],
  },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const RotateSecretBody = Type.Object(
  {
    overlapSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604_800,
        description:
          'How long the previous secret keeps signing (a second signature): default 86400 (24 h), at most 7 days; 0 stops it at once.',
      }),
    ),
  },
  { title: 'RotateWebhookSecretRequest', description: 'Optional.' },
);
export type RotateSecretBody = Static<typeof RotateSecretBody>;

export const RotateSecretAnswer = Type.Object(
  {
    webhookId: Type.String({ description: 'The endpoint.' }),
    secret: Secret,
    previousSecretExpiresAt: utc('Until then deliveries are signed with both secrets'),
  },
  { title: 'RotateWebhookSecretAnswer' },
);
export type RotateSecretAnswer = Static<typeof RotateSecretAnswer>;

export const TestEventAnswer = Type.Object(
  {
    eventId: Type.String({
      description: 'The `webhook.test` event recorded (its `webhook-id`); it is delivered to this endpoint only.',
    }),
  },
  { title: 'WebhookTestAnswer' },
);
export type TestEventAnswer = Static<typeof TestEventAnswer>;
