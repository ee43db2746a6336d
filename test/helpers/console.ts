import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';
import { PasswordHasher } from '../../src/auth/passwords.js';
import type { OperatorRole } from '../../src/operators/model.js';
import { findOperatorByUsername, insertOperator } from '../../src/operators/repository.js';

/** The test operator of a role: `op-<role>` with a known password, no second factor (not production). */
export const operatorLogin = (role: OperatorRole) => `op-${role.toLowerCase().replace(/_/g, '-')}`;
export const operatorPassword = (role: OperatorRole) => `Console-${role}-password`;

/** Makes sure the test operator of `role` exists in the test app's database; answers its id. */
export async function ensureOperator(t: TestApp, role: OperatorRole, username = operatorLogin(role)): Promise<number> {
  const existing = await findOperatorByUsername(t.context.db, username);
  if (existing) return existing.id;
  return insertOperator(t.context.db, {
    username,
    displayName: `Test ${role.toLowerCase().replace(/_/g, ' ')}`,
    role,
    passwordHash: await new PasswordHasher(t.context.config.auth.argon2).hash(operatorPassword(role)),
    isDemo: false,
    at: new Date().toISOString(),
  });
}

/** The value of the form's `_csrf` field in a console page. */
export const csrfOf = (page: string): string | undefined => /name="_csrf" value="([^"]+)"/.exec(page)?.[1];

/** The session cookie a console answer sets (`name=value`), if any. */
export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const set = response.headers['set-cookie'];
  const cookies = Array.isArray(set) ? set : set === undefined ? [] : [set];
  const found = cookies.find((c) => /^(__Host-)?console=/.test(c));
  return found?.split(';')[0];
}

/** A browser's side of the console through `inject`: its cookie, and a CSRF token on every POST. */
export class ConsoleVisitor {
  constructor(
    private readonly app: FastifyInstance,
    public cookie?: string,
  ) {}

  private remember(response: LightMyRequestResponse): LightMyRequestResponse {
    this.cookie = sessionCookieOf(response) ?? this.cookie;
    return response;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.remember(
      await this.app.inject({ method: 'GET', url, headers: this.cookie ? { cookie: this.cookie } : {} }),
    );
  }

  /** A token of this session, as a page's form carries it. */
  async csrf(): Promise<string> {
    const page = await this.get(this.cookie ? '/console/account' : '/console/sign-in');
    const token = csrfOf(page.body);
    if (!token) throw new Error(`no CSRF token in the page (${page.statusCode})`);
    return token;
  }

  /** POSTs a form; the session's CSRF token is added unless `csrf` is given (`false`: none). */
  async post(url: string, form: Record<string, string>, csrf?: string | false): Promise<LightMyRequestResponse> {
    const token = csrf === undefined ? await this.csrf() : csrf;
    const fields = token === false ? form : { ...form, _csrf: token };
    return this.remember(
      await this.app.inject({
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(this.cookie ? { cookie: this.cookie } : {}),
        },
        payload: new URLSearchParams(fields).toString(),
      }),
    );
  }
}

/** Signs the test operator of `role` in through the sign-in form; answers its visitor. */
export async function signInAs(t: TestApp, role: OperatorRole): Promise<ConsoleVisitor> {
  await ensureOperator(t, role);
  const visitor = new ConsoleVisitor(t.app);
  const response = await visitor.post('/console/sign-in', {
    username: operatorLogin(role),
    password: operatorPassword(role),
  });
  if (response.statusCode !== 303) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return visitor;
}
