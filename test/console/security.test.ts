import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import {
  ConsoleVisitor,
  csrfOf,
  ensureOperator,
  operatorLogin,
  operatorPassword,
  signInAs,
} from '../helpers/console.js';
import { DIALECT } from '../helpers/database.js';
import { may, OPERATOR_ROLES } from '../../src/operators/model.js';

// Issue 31, "Security tests": every console route refuses an unsigned visitor, the wrong role, a
// missing or foreign CSRF token, a fixed session id; a partner token is no operator session and an
// operator cookie is no partner token.
describe(`the console's guards (${DIALECT})`, () => {
  const getApp = useTestApp();
  const routes = () => getApp().app.consoleRouteTable;
  /** A path of the route with every parameter filled in. */
  const pathOf = (url: string) => url.replace(/:[A-Za-z]+/g, 'X1');

  it('lists its routes, and every POST but sign-in names the action it needs or is the session itself', () => {
    const posts = routes().filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThan(2);
    const sessionOwn = new Set(['/console/sign-in', '/console/sign-out', '/console/sign-out-everywhere']);
    for (const route of posts) if (!sessionOwn.has(route.url)) expect(route, route.url).toHaveProperty('action');
  });

  it('refuses an unsigned visitor on every route but sign-in: GET goes to sign in, POST is 401', async () => {
    const t = getApp();
    for (const route of routes()) {
      if (route.url === '/console/sign-in' || route.method === 'HEAD') continue;
      const response = await t.app.inject({ method: route.method as 'GET', url: pathOf(route.url) });
      if (route.method === 'GET') {
        expect(response.statusCode, route.url).toBe(303);
        expect(response.headers.location).toBe('/console/sign-in');
      } else expect(response.statusCode, route.url).toBe(401);
    }
  });

  it('refuses a role every action it may not do, by URL', async () => {
    const t = getApp();
    for (const role of OPERATOR_ROLES) {
      const visitor = await signInAs(t, role);
      for (const route of routes().filter((r) => r.action && !may({ role }, r.action))) {
        const response =
          route.method === 'GET' ? await visitor.get(pathOf(route.url)) : await visitor.post(pathOf(route.url), {});
        expect(response.statusCode, `${role} ${route.method} ${route.url}`).toBe(403);
      }
    }
  });

  it('refuses a POST without the CSRF token, or with another session’s', async () => {
    const t = getApp();
    const support = await signInAs(t, 'SUPPORT');
    const other = await signInAs(t, 'READ_ONLY');
    const foreign = await other.csrf();
    for (const csrf of [false, foreign, 'not-a-token'] as const) {
      const response = await support.post('/console/sign-out', {}, csrf);
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('Form refused');
    }
    // Still signed in: the refused sign-out changed nothing.
    expect((await support.get('/console/account')).statusCode).toBe(200);
  });

  it('never signs in a session id fixed before sign-in', async () => {
    const t = getApp();
    await ensureOperator(t, 'SUPPORT');
    const attacker = new ConsoleVisitor(t.app);
    const token = await attacker.csrf();
    const planted = attacker.cookie!;
    // The victim signs in carrying the attacker's cookie.
    const victim = new ConsoleVisitor(t.app, planted);
    const signIn = await victim.post(
      '/console/sign-in',
      { username: operatorLogin('SUPPORT'), password: operatorPassword('SUPPORT') },
      token,
    );
    expect(signIn.statusCode).toBe(303);
    expect(victim.cookie).not.toBe(planted);
    const withPlanted = await new ConsoleVisitor(t.app, planted).get('/console/account');
    expect(withPlanted.statusCode).toBe(303);
    expect((await victim.get('/console/account')).statusCode).toBe(200);
  });

  it('takes a partner token for no operator, and an operator cookie for no partner', async () => {
    const t = getApp();
    const bearer = await bearerFor(t, 'brandau');
    const asPartner = await t.app.inject({ method: 'GET', url: '/console', headers: bearer });
    expect(asPartner.statusCode).toBe(303);
    const operator = await signInAs(t, 'SENIOR_UNDERWRITER');
    const asOperator = await t.app.inject({
      method: 'GET',
      url: '/products/v1/brandau/baseQuoteConfig',
      headers: { cookie: operator.cookie! },
    });
    expect(asOperator.statusCode).toBe(401);
  });

  it('signs out here, and everywhere', async () => {
    const t = getApp();
    const first = await signInAs(t, 'UNDERWRITER');
    const second = await signInAs(t, 'UNDERWRITER');
    expect((await first.post('/console/sign-out', {})).statusCode).toBe(303);
    expect((await first.get('/console/account')).statusCode).toBe(303);
    expect((await second.get('/console/account')).statusCode).toBe(200);
    const third = await signInAs(t, 'UNDERWRITER');
    expect((await third.post('/console/sign-out-everywhere', {})).statusCode).toBe(303);
    expect((await second.get('/console/account')).statusCode).toBe(303);
    expect((await third.get('/console/account')).statusCode).toBe(303);
  });

  it('refuses a wrong password with the same words as an unknown name, and sets cookie flags', async () => {
    const t = getApp();
    await ensureOperator(t, 'READ_ONLY');
    const wrong = await new ConsoleVisitor(t.app).post('/console/sign-in', {
      username: operatorLogin('READ_ONLY'),
      password: 'wrong',
    });
    const unknown = await new ConsoleVisitor(t.app).post('/console/sign-in', { username: 'nobody', password: 'x' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const problem = (body: string) => /<div class="notice"[^>]*><p>([^<]+)<\/p>/.exec(body)?.[1];
    expect(problem(wrong.body)).toBe(problem(unknown.body));
    const page = await t.app.inject({ method: 'GET', url: '/console/sign-in' });
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(csrfOf(page.body)).toBeDefined();
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  });
});
