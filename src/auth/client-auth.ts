import { OAuthError, REALM, invalidRequest } from './errors.js';

/**
 * Client authentication at the token endpoint (RFC 6749 §2.3.1). Every registered client is public
 * (no secret), so "authentication" identifies the client: by `client_id` in the form
 * (`none` / `client_secret_post` with an empty secret) or by HTTP Basic `base64(client_id ":")`
 * (`client_secret_basic`, the default of many client libraries). A secret is never valid.
 */

/** The challenge of HTTP Basic client authentication (RFC 7617). */
export const BASIC_CHALLENGE = `Basic realm="${REALM}"`;

/** invalid_client after an Authorization header: RFC 6749 §5.2 requires 401 with a matching challenge. */
export class BasicClientRefused extends OAuthError {
  readonly challenge = BASIC_CHALLENGE;
  constructor(description: string) {
    super(401, 'invalid_client', description);
  }
}

// Control characters (NUL above all) never name a client and must not reach a query.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** RFC 6749 §2.3.1: client id and secret are form-encoded before they are joined and base64-encoded. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (id === undefined || secret === undefined || CONTROL.test(id) || CONTROL.test(secret)) return undefined;
  return { id, secret };
}

/**
 * The client id of a token request, from the `Authorization: Basic` header and/or the form.
 * Both may be sent (RFC 6749 §3.2.1 lets a client identify itself in the form too) but must name
 * the same client; two different ids are a malformed request (400 invalid_request), not a failed
 * authentication. A non-empty secret is 401 invalid_client: these clients have none.
 * Undefined when neither names a client (the caller answers "client_id is required").
 */
export function clientIdOf(
  authorization: string | undefined,
  form: { readonly client_id?: string | undefined; readonly client_secret?: string | undefined },
): string | undefined {
  if (form.client_secret !== undefined && form.client_secret !== '') {
    throw new OAuthError(401, 'invalid_client', 'This client is public: send no client_secret.');
  }
  if (authorization === undefined || authorization === '') return form.client_id;
  if (!/^Basic /i.test(authorization)) {
    throw invalidRequest(
      'The token endpoint takes no Authorization header other than HTTP Basic client authentication.',
    );
  }
  const basic = basicCredentials(authorization);
  if (!basic || basic.id === '') {
    throw new BasicClientRefused('The Authorization header must be \'Basic base64(client_id ":")\'.');
  }
  if (basic.secret !== '') throw new BasicClientRefused('This client is public: its Basic password must be empty.');
  if (form.client_id !== undefined && form.client_id !== '' && form.client_id !== basic.id) {
    throw invalidRequest('The client_id in the form differs from the one in the Authorization header.');
  }
  return basic.id;
}
