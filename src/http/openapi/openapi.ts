import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config/config.js';
import { nameSchemas, type OpenApiDocument } from './document.js';
import { addSharedParts, BEARER_SCHEME, documentRoute } from './shared.js';

export const API_TAGS = [
  { name: 'auth', description: 'Bearer tokens for partner users (spec §4.1, §5).' },
  { name: 'products', description: 'Product configuration per brand (spec §4.4–4.9).' },
  { name: 'quotes', description: 'Pricing, refining and reading quotes (spec §4.3 and docs/api-contract.md).' },
  { name: 'purchase', description: 'Buying a quote with a tokenised card and 3-D Secure (spec §4.2).' },
  { name: 'policies', description: 'Policy summary and transaction details (spec §4.10, §4.11).' },
  {
    name: 'policy changes',
    description:
      'Amendments and cancellations: a priced preview, then a confirmation that moves the money (docs/api-contract.md).',
  },
  {
    name: 'documents',
    description:
      "The customer's document link: a public HTML page and PDF downloads opened by the policy's access value.",
  },
  {
    name: 'webhooks',
    description:
      'Webhook endpoints of a partner: signed (Standard Webhooks) deliveries of its events, secret rotation, a test event.',
  },
  {
    name: 'events',
    description:
      'What happened to your policies and purchases: the event feed, each event with its deliveries, redelivery (docs/api-contract.md "Events").',
  },
  {
    name: 'statements',
    description:
      'Your monthly statements per brand: every policy transaction, totals per payment method, the on-account balance; JSON, CSV or a PDF tax invoice (docs/api-contract.md "Statements").',
  },
  {
    name: 'screening',
    description:
      'Medical screening (TravelClear) of a quote’s traveller: questions, answers, the result priced into the quote (docs/api-contract.md "Medical screening").',
  },
  { name: 'operations', description: 'Health, readiness and metrics for operators.' },
];

/** The `webhooks` section (OpenAPI 3.1): the requests this API sends to partners' endpoints. */
const withWebhooks = (webhooks: Record<string, unknown> | undefined) => (webhooks ? { webhooks } : {});

type Document = { paths: Record<string, Record<string, unknown>> };

/** The request examples of the document: stable ones written into it, and live ones for a served copy. */
export interface DocumentExamples {
  /** Writes the stable examples (the generated, committed document). */
  fixed<D extends Document>(document: D): D;
  /** Writes the examples of live objects into a copy being served (a staging server's demo data). */
  live?<D extends Document>(document: D): Promise<D>;
}

/** OpenAPI 3.1 from the route schemas, served at /openapi.json and rendered at /docs. */
export async function registerOpenApi(
  app: FastifyInstance,
  config: AppConfig,
  extra: { readonly webhooks?: Record<string, unknown>; readonly examples?: DocumentExamples } = {},
): Promise<void> {
  const examples = extra.examples;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Travel Insurance Partner API',
        version: '1.0.0',
        description:
          'Partners obtain a token, read product configuration, price a quote, buy it with a tokenised card ' +
          '(with 3-D Secure) and read the resulting policy. Decisions the partner specification leaves open are ' +
          'recorded in docs/api-contract.md. Every error except the token endpoint answers with ' +
          '`{"validation": {"isValid": false, "errors": [Notification]}}`.',
        contact: { name: 'Partner integration support', email: 'partners@example.com' },
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.publicBaseUrl, description: 'This server.' }],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          [BEARER_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Access token from the token endpoint.',
          },
        },
      },
    },
    transform: documentRoute,
    // Named schemas first: the shared parts refer to ErrorResponse and TokenError by name.
    transformObject: (generated) =>
      'openapiObject' in generated
        ? (withExamples(
            addSharedParts(
              nameSchemas({ ...(generated.openapiObject as OpenApiDocument), ...withWebhooks(extra.webhooks) }),
            ),
          ) as typeof generated.openapiObject)
        : generated.swaggerObject,
  });
  const withExamples = (document: OpenApiDocument) => (examples ? examples.fixed(document) : document);
  // A served copy may name live objects (a staging server's demo data): made before the answer.
  const served = new WeakMap<object, Record<string, unknown>>();
  const serve = async (): Promise<Record<string, unknown>> => {
    const document = app.swagger() as unknown as Document & Record<string, unknown>;
    return examples?.live ? examples.live(structuredClone(document)) : document;
  };
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiHooks: {
      preHandler: (request, _reply, done) => {
        if (!/\/(json|yaml)$/.test(request.url)) return done();
        serve().then((document) => {
          served.set(request, document);
          done();
        }, done);
      },
    },
    transformSpecificationClone: false,
    transformSpecification: (document, request) => served.get(request) ?? document,
  });
  app.get('/openapi.json', { schema: { hide: true } }, serve);
}
