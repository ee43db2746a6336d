import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { BrandCode } from '../kernel/brands.js';
import type { AppContext } from '../context.js';
import { BrandParams } from '../http/schemas.js';
import { errorResponses } from '../http/error-responses.js';
import { issuerOf } from './access-tokens.js';

/** RFC 8414 authorization server metadata: one document per brand, since each brand has its own token endpoint. */

const WELL_KNOWN = '/.well-known/oauth-authorization-server';

export const AuthorizationServerMetadata = Type.Object(
  {
    issuer: Type.String({ format: 'uri', description: 'Equals the `iss` of this brand’s access tokens.' }),
    token_endpoint: Type.String({ format: 'uri', description: 'The brand’s token endpoint.' }),
    grant_types_supported: Type.Array(Type.String()),
    response_types_supported: Type.Array(Type.String(), {
      description: 'Empty: there is no authorization endpoint.',
    }),
    token_endpoint_auth_methods_supported: Type.Array(Type.String(), {
      description: 'Clients are public: `none` (client_id in the form), or Basic / form with an empty secret.',
    }),
    service_documentation: Type.String({ format: 'uri' }),
    partner_brand_codes_supported: Type.Boolean({
      description:
        'Extension (spec §5 note 6): the token endpoint also accepts a partner’s own brand code in place of `{brandCode}` (`…/users/{partnerBrandCode}/token`), for that partner’s users; the token is this brand’s. Codes are given to each partner by the operator and are not listed here.',
    }),
  },
  {
    title: 'AuthorizationServerMetadata',
    description: 'RFC 8414 §2 metadata of one brand’s authorization server.',
    examples: [
      {
        issuer: 'https://api.example.com/users/brandau',
        token_endpoint: 'https://api.example.com/users/brandau/token',
        grant_types_supported: ['password', 'refresh_token'],
        response_types_supported: [],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        service_documentation: 'https://api.example.com/docs',
        partner_brand_codes_supported: true,
      },
    ],
  },
);
export type AuthorizationServerMetadata = Static<typeof AuthorizationServerMetadata>;

export function metadataFor(context: AppContext, brandCode: BrandCode): AuthorizationServerMetadata {
  const { publicBaseUrl, basePath } = context.config;
  return {
    issuer: issuerOf(context, brandCode),
    token_endpoint: `${publicBaseUrl}${basePath}/users/${brandCode}/token`,
    grant_types_supported: ['password', 'refresh_token'],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    service_documentation: `${publicBaseUrl}/docs`,
    partner_brand_codes_supported: true,
  };
}

/**
 * The metadata path of an issuer (RFC 8414 §3.1): the well-known segment goes between the host
 * and the issuer's path, so `https://h/api/users/brandau` is described at
 * `https://h/.well-known/oauth-authorization-server/api/users/brandau`.
 */
export function metadataPathPattern(context: AppContext): string {
  const issuerPath = new URL(issuerOf(context, 'brandau')).pathname.replace(/\/users\/brandau$/, '');
  return `${WELL_KNOWN}${issuerPath}/users/:brandCode`;
}

/** Registered outside BASE_PATH (the well-known prefix comes first); public, like the token endpoint. */
export const metadataRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = (app, { context }) => {
  app.get(
    metadataPathPattern(context),
    {
      schema: {
        tags: ['auth'],
        operationId: 'getAuthorizationServerMetadata',
        summary: 'OAuth 2.0 authorization server metadata of a brand',
        description:
          'RFC 8414 discovery for the brand’s issuer `{PUBLIC_BASE_URL}{BASE_PATH}/users/{brandCode}` (the `iss` of its access tokens): token endpoint, grants and client authentication methods. No token needed; cacheable for an hour.',
        params: BrandParams,
        response: { 200: AuthorizationServerMetadata, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return Promise.resolve(metadataFor(context, request.params.brandCode));
    },
  );
  return Promise.resolve();
};
