import { PartnerApiError, notificationsOf } from './errors.js';

/** The credentials of a partner user, as the token endpoint's password grant takes them. */
export interface PartnerCredentials {
  readonly username: string;
  readonly password: string;
  /** 'API' unless told otherwise. */
  readonly clientId?: string;
  readonly customerInterfaceId?: number;
  readonly userTypeId?: number;
}

export interface TokenSet {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in: number;
  readonly refresh_token?: string;
}

/**
 * Holds the token pair of one brand. Sign-in and refresh share one in-flight promise, so two
 * requests that meet a 401 together refresh once: the server revokes the whole family when a
 * refresh token is presented twice.
 */
export class TokenKeeper {
  private tokens: TokenSet | undefined;
  private expiresAt = 0;
  private inFlight: Promise<TokenSet> | undefined;

  constructor(
    private readonly tokenUrl: string,
    private readonly credentials: PartnerCredentials | undefined,
    private readonly fetchFn: typeof fetch,
  ) {}

  /** A valid access token, signing in when none is held or the held one is about to expire. */
  async accessToken(): Promise<string> {
    if (this.inFlight) return (await this.inFlight).access_token;
    if (this.tokens && Date.now() < this.expiresAt) return this.tokens.access_token;
    return (await this.renew(this.tokens?.access_token)).access_token;
  }

  /** After a 401 for `rejected`: a fresh token, unless another request already replaced it. */
  async renew(rejected: string | undefined): Promise<TokenSet> {
    if (this.inFlight) return this.inFlight;
    if (this.tokens && rejected !== this.tokens.access_token && Date.now() < this.expiresAt) return this.tokens;
    const refresh = this.tokens?.refresh_token;
    // Spent at once: this refresh token is never presented again, whatever the answer.
    this.tokens = undefined;
    this.inFlight = (refresh ? this.refresh(refresh).catch(() => this.signIn()) : this.signIn()).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Signs in with the password grant (used by the first call; callable to check credentials). */
  signIn(): Promise<TokenSet> {
    if (!this.credentials) throw new PartnerApiError(401, [], undefined, 'No credentials configured');
    const c = this.credentials;
    return this.post({
      grant_type: 'password',
      client_id: c.clientId ?? 'API',
      username: c.username,
      password: c.password,
      customerInterfaceId: String(c.customerInterfaceId ?? 8),
      userTypeId: String(c.userTypeId ?? 4),
    });
  }

  private refresh(refreshToken: string): Promise<TokenSet> {
    return this.post({
      grant_type: 'refresh_token',
      client_id: this.credentials?.clientId ?? 'API',
      refresh_token: refreshToken,
    });
  }

  private async post(form: Record<string, string>): Promise<TokenSet> {
    const response = await this.fetchFn(this.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      throw new PartnerApiError(
        response.status,
        notificationsOf(body),
        response.headers.get('x-request-id') ?? undefined,
      );
    }
    const tokens = body as TokenSet;
    this.tokens = tokens;
    // Renewed a little early, so a token never expires on its way to the server.
    this.expiresAt = Date.now() + Math.max(0, tokens.expires_in - 30) * 1000;
    return tokens;
  }
}
