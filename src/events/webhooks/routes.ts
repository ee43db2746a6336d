import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../auth/principal.js';
import type { AppContext } from '../../context.js';
import { emptyBodyAsObject } from '../../http/guards/empty-body.js';
import { BrandParams } from '../../http/schemas.js';
import { errorResponses } from '../../http/error-responses.js';
import { systemResolver, type Resolver } from './address-guard.js';
import type { WebhookEndpoint } from './model.js';
import {
  CreateWebhookBody,
  RotateSecretAnswer,
  RotateSecretBody,
  TestEventAnswer,
  UpdateWebhookBody,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEndpointSchema,
  WebhookParams,
} from './schemas.js';
import * as service from './service.js';
import { WebhookDisabled, WebhookLimitReached, WebhookNotFound, WebhookTestsLimited } from './errors.js';

/** The endpoint the document's error examples name. */
const WEBHOOK_ID = 'whe_3q2Rk7d0Tq6mYb8FvX1aLw';
const WEBHOOK_NOT_FOUND = new WebhookNotFound(WEBHOOK_ID);

const NOT_FOUND =
  '404 `WEBHOOK_NOT_FOUND` when the id is unknown, deleted, or another partner’s or brand’s (not told apart).';

export const webhookDepsOf = (context: AppContext, resolve: Resolver = systemResolver): service.WebhookDeps => ({
  db: context.db,
  clock: context.clock,
  keySecret: context.config.auth.keyEncryptionSecret,
  rules: { production: context.config.env === 'production' },
  resolve,
  secretOverlapSeconds: context.config.webhooks.secretOverlapSeconds,
  testEventsPerHour: context.config.webhooks.budgets.testEventsPerHour,
});

/** The contract's view of an endpoint: never its secrets. */
export function endpointView(e: WebhookEndpoint): WebhookEndpointSchema {
  return {
    webhookId: e.id,
    url: e.url,
    ...(e.description === undefined ? {} : { description: e.description }),
    eventTypes: [...e.eventTypes],
    enabled: e.enabled,
    ...(e.disabledReason === undefined ? {} : { disabledReason: e.disabledReason }),
    ...(e.disabledAt === undefined ? {} : { disabledAt: e.disabledAt }),
    ...(e.failingSince === undefined ? {} : { failingSince: e.failingSince }),
    ...(e.previousSecretExpiresAt === undefined ? {} : { previousSecretExpiresAt: e.previousSecretExpiresAt }),
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

const tags = ['webhooks'];

/** The partner's webhook endpoints (issue 21); registered inside the protected scope. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ context: AppContext; resolve?: Resolver }> = (
  app,
  { context, resolve },
) => {
  const deps = webhookDepsOf(context, resolve);
  const base = '/partners/v1/:brandCode/webhooks';
  const scopeOf = (request: Parameters<typeof principalOf>[0]) => {
    const { partnerId, brandCode } = principalOf(request);
    return { partnerId, brandCode };
  };

  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Register a webhook endpoint',
        description:
          'Registers an endpoint that receives the events of this partner and brand, signed per Standard Webhooks. The answer carries the signing `secret`, shown this once. At most 20 endpoints per brand (409 `WEBHOOK_LIMIT_REACHED`). 400 `WEBHOOK_URL_REFUSED` (property `url`) for a URL webhooks may not be sent to.',
        params: BrandParams,
        body: CreateWebhookBody,
        response: {
          201: WebhookEndpointCreated,
          ...errorResponses(400, 401, 403, 404, new WebhookLimitReached(10), 429, 500),
        },
      },
    },
    async (request, reply): Promise<WebhookEndpointCreated> => {
      const { endpoint, secret } = await service.createEndpoint(deps, scopeOf(request), request.body);
      reply.code(201);
      return { ...endpointView(endpoint), secret };
    },
  );

  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'Webhook endpoints',
        description:
          'Every endpoint of this partner under this brand (deleted ones not), oldest first; never their secrets.',
        params: BrandParams,
        response: { 200: WebhookEndpointList, ...errorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request): Promise<WebhookEndpointList> => ({
      webhooks: (await service.listEndpoints(deps, scopeOf(request))).map(endpointView),
    }),
  );

  app.get(
    `${base}/:webhookId`,
    {
      schema: {
        tags,
        operationId: 'getWebhook',
        summary: 'One webhook endpoint',
        description: `The endpoint, with why it is disabled and since when it fails, if so. ${NOT_FOUND}`,
        params: WebhookParams,
        response: { 200: WebhookEndpointSchema, ...errorResponses(400, 401, 403, WEBHOOK_NOT_FOUND, 429, 500) },
      },
    },
    async (request) => endpointView(await service.getEndpoint(deps, scopeOf(request), request.params.webhookId)),
  );

  app.patch(
    `${base}/:webhookId`,
    {
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Change a webhook endpoint',
        description: `Changes the URL (checked as at registration), the event types, the description, or enables or disables it. Re-enabling clears \`disabledReason\` and \`failingSince\`; events missed meanwhile can be redelivered. ${NOT_FOUND}`,
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookEndpointSchema, ...errorResponses(400, 401, 403, WEBHOOK_NOT_FOUND, 429, 500) },
      },
    },
    async (request) =>
      endpointView(await service.updateEndpoint(deps, scopeOf(request), request.params.webhookId, request.body)),
  );

  app.delete(
    `${base}/:webhookId`,
    {
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: `Nothing more is delivered to it; deliveries already recorded stay visible on the events. ${NOT_FOUND}`,
        params: WebhookParams,
        response: {
          204: { type: 'null', description: 'Deleted.' },
          ...errorResponses(400, 401, 403, WEBHOOK_NOT_FOUND, 429, 500),
        },
      },
    },
    async (request, reply) => {
      await service.deleteEndpoint(deps, scopeOf(request), request.params.webhookId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:webhookId/rotate-secret`,
    {
      preValidation: [emptyBodyAsObject],
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description: `A new secret, shown once. Until \`previousSecretExpiresAt\` (default 24 h, at most 7 days) every delivery carries two signatures, one per secret, so a receiver verifies with either while it switches. ${NOT_FOUND}`,
        params: WebhookParams,
        body: RotateSecretBody,
        response: { 200: RotateSecretAnswer, ...errorResponses(400, 401, 403, WEBHOOK_NOT_FOUND, 429, 500) },
      },
    },
    async (request): Promise<RotateSecretAnswer> => {
      const { webhookId } = request.params;
      const rotated = await service.rotateSecret(deps, scopeOf(request), webhookId, request.body.overlapSeconds);
      return { webhookId, secret: rotated.secret, previousSecretExpiresAt: rotated.previousSecretExpiresAt };
    },
  );

  app.post(
    `${base}/:webhookId/test`,
    {
      schema: {
        tags,
        operationId: 'testWebhook',
        summary: 'Send a test event',
        description: `Records a \`webhook.test\` event delivered to this endpoint only, like any other (signed, retried); follow it with GET …/events/{eventId}. At most \`WEBHOOK_TEST_EVENTS_PER_PARTNER_PER_HOUR\` (60) test events per partner per UTC hour: past it, 429 \`RATE_LIMITED\` with \`Retry-After\` (nothing recorded). 409 \`WEBHOOK_DISABLED\` when the endpoint is disabled. ${NOT_FOUND}`,
        params: WebhookParams,
        response: {
          202: TestEventAnswer,
          ...errorResponses(
            400,
            401,
            403,
            WEBHOOK_NOT_FOUND,
            new WebhookDisabled(WEBHOOK_ID),
            new WebhookTestsLimited(10, 3600),
            500,
          ),
        },
      },
    },
    async (request, reply): Promise<TestEventAnswer> => {
      const eventId = await service.sendTestEvent(deps, scopeOf(request), request.params.webhookId);
      reply.code(202);
      return { eventId };
    },
  );
  return Promise.resolve();
};
