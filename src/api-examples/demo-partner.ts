import type { FastifyInstance } from 'fastify';

/**
 * The demo partner as /docs' examples need it: calls this server's own public API in process
 * (`app.inject`, no socket), signed in as DEMOA's brandau user, so every demo object is made the
 * way a partner makes it.
 */
export interface DemoAnswer {
  readonly status: number;
  readonly body: string;
  /** The body as JSON, typed by the caller (as light-my-request's `json<T>()`): answers of this very API. */
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the answer's shape
  json<T = Record<string, unknown>>(): T;
}

export class DemoPartnerCallFailed extends Error {
  constructor(method: string, url: string, status: number, body: string) {
    super(`${method} ${url} answered ${status}: ${body.slice(0, 300)}`);
    this.name = 'DemoPartnerCallFailed';
  }
}

export class DemoPartner {
  private accessToken: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly login: { readonly username: string; readonly password: string },
    /** BASE_PATH: the prefix of every route. */
    private readonly basePath: string,
  ) {}

  /** An answer of any status (to see whether an object is still usable). */
  async read(url: string): Promise<DemoAnswer> {
    return this.send('GET', url);
  }

  /** A call that must succeed (2xx or 303); its JSON body. */
  async call<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const answer = await this.send(method, url, body, headers);
    if (answer.status >= 300 && answer.status !== 303)
      throw new DemoPartnerCallFailed(method, url, answer.status, answer.body);
    return answer.body === '' ? ({} as T) : answer.json<T>();
  }

  private async send(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<DemoAnswer> {
    const authorization = `Bearer ${await this.token()}`;
    const res = await this.app.inject({
      method: method as 'GET',
      url: this.basePath + url,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    // A token that ran out (an hour) is taken again once.
    if (res.statusCode === 401 && this.accessToken !== undefined) {
      this.accessToken = undefined;
      return this.send(method, url, body, headers);
    }
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- as DemoAnswer.json
    return { status: res.statusCode, body: res.body, json: <T>() => res.json<T>() };
  }

  private async token(): Promise<string> {
    if (this.accessToken !== undefined) return this.accessToken;
    const res = await this.app.inject({
      method: 'POST',
      url: `${this.basePath}/users/brandau/token`,
      payload: new URLSearchParams({
        grant_type: 'password',
        client_id: 'API',
        customerInterfaceId: '8',
        userTypeId: '4',
        ...this.login,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (res.statusCode !== 200)
      throw new DemoPartnerCallFailed('POST', '/users/brandau/token', res.statusCode, res.body);
    this.accessToken = res.json<{ access_token: string }>().access_token;
    return this.accessToken;
  }
}
