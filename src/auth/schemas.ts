import { Type, type Static } from 'typebox';
import { OAUTH_ERROR_CODES } from './errors.js';

/** Spec §4.1 form fields. All text, as a form carries them; the grant decides which are required. */
export const TokenForm = Type.Object(
  {
    grant_type: Type.Enum(['password', 'refresh_token'], {
      type: 'string',
      description:
        '`password` to sign in with credentials; `refresh_token` to renew. Others: 400 `unsupported_grant_type`.',
    }),
    client_id: Type.Optional(
      Type.String({
        description:
          'Registered client: `API` (partners), `InternalApi`, `ngPublicApp`, `mobileApp`, `ngUnderwriterApp`. Required for both grants, here or as the user name of `Authorization: Basic base64(client_id ":")` (client_secret_basic); when both are sent they must agree.',
      }),
    ),
    client_secret: Type.Optional(
      Type.String({
        description:
          'Clients are public: absent or empty (client_secret_post with no secret); any secret is 401 `invalid_client`.',
      }),
    ),
    username: Type.Optional(Type.String({ description: 'For `password`: the login (compared case-insensitively).' })),
    password: Type.Optional(Type.String({ description: 'For `password`: the user’s password.' })),
    customerInterfaceId: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,9}$',
        description:
          'For `password`: interface type (1 public website, 2 customer-service website, 3 mobile app, 5 partner website, 6 underwriter website, 8 third-party website). The client must be registered for it.',
      }),
    ),
    userTypeId: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,9}$',
        description:
          'Default 1 (customer); 2 employee, 3 assistance provider, 4 partner, 5 underwriter. Must match the user.',
      }),
    ),
    refresh_token: Type.Optional(
      Type.String({ description: 'For `refresh_token`: the refresh token to exchange (single use).' }),
    ),
  },
  {
    title: 'TokenForm',
    description:
      'application/x-www-form-urlencoded body. Unknown fields are ignored; a repeated field is invalid_request.',
    examples: [
      {
        grant_type: 'password',
        client_id: 'API',
        username: 'partner.user@example.com',
        password: 'correct horse battery staple',
        customerInterfaceId: '8',
        userTypeId: '4',
      },
    ],
  },
);
export type TokenForm = Static<typeof TokenForm>;

export const TokenResult = Type.Object(
  {
    access_token: Type.String({ description: 'JWT to send as `Authorization: Bearer <access_token>`.' }),
    token_type: Type.Enum(['Bearer'], { type: 'string', description: 'Always `Bearer`.' }),
    expires_in: Type.Integer({
      description: 'Seconds until the access token expires (ACCESS_TOKEN_TTL_SECONDS, default 3600).',
    }),
    refresh_token: Type.String({
      description:
        'Opaque, single-use refresh token; a new one comes with every answer. Presenting a used one revokes its whole family.',
    }),
  },
  {
    title: 'TokenResult',
    required: ['access_token', 'token_type', 'expires_in'],
    description: 'Token result (spec §2.4).',
    examples: [
      {
        access_token: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiYXQrand0In0.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl',
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: 'b3BhcXVlLXNpbmdsZS11c2UtcmVmcmVzaC10b2tlbg',
      },
    ],
  },
);

/** The token endpoint's error body; `example` is the refusal the status shows in the document. */
export const TokenError = (description: string, example?: { readonly error: string; readonly description: string }) =>
  Type.Object(
    {
      error: Type.Enum([...OAUTH_ERROR_CODES], {
        type: 'string',
        description: 'RFC 6749 §5.2 code; `temporarily_unavailable` is the 429 answer, `server_error` the 500 answer.',
      }),
      error_description: Type.String({
        description: 'What went wrong, for a person. Never tells whether a username exists.',
      }),
    },
    {
      title: 'TokenError',
      description,
      ...(example ? { examples: [{ error: example.error, error_description: example.description }] } : {}),
    },
  );
