import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { operatorLogin, signInAs } from '../helpers/console.js';
import { DIALECT } from '../helpers/database.js';
import { changeRole, disableOperator, enableOperator } from '../../src/operators/accounts.js';

// Issue 31: idle and absolute timeouts (CONSOLE_IDLE_MINUTES 30, CONSOLE_SESSION_HOURS 10), and a
// disabled operator or a changed role taking effect at the next request.
describe(`console sessions end (${DIALECT})`, () => {
  let now = Date.parse('2026-12-01T08:00:00Z');
  const getApp = useTestApp({ clock: () => new Date(now) });
  const minutes = (n: number) => {
    now += n * 60_000;
  };

  it('after 30 minutes without a request', async () => {
    const visitor = await signInAs(getApp(), 'SUPPORT');
    minutes(29);
    expect((await visitor.get('/console/account')).statusCode).toBe(200);
    minutes(29); // 58 minutes since sign-in, 29 since the last request: still in
    expect((await visitor.get('/console/account')).statusCode).toBe(200);
    minutes(31);
    const late = await visitor.get('/console/account');
    expect(late.statusCode).toBe(303);
    expect(late.headers.location).toBe('/console/sign-in');
  });

  it('10 hours after sign-in, however active', async () => {
    const visitor = await signInAs(getApp(), 'UNDERWRITER');
    for (let i = 0; i < 20; i += 1) {
      minutes(29);
      expect((await visitor.get('/console/account')).statusCode, `after ${(i + 1) * 29} minutes`).toBe(200);
    }
    minutes(20); // 600 minutes
    expect((await visitor.get('/console/account')).statusCode).toBe(303);
  });

  it('at once when the operator is disabled; a new role shows at the next page', async () => {
    const t = getApp();
    const deps = { db: t.context.db, clock: t.context.clock };
    const visitor = await signInAs(t, 'READ_ONLY');
    await changeRole(deps, operatorLogin('READ_ONLY'), 'SUPPORT');
    expect((await visitor.get('/console/account')).body).toContain('SUPPORT');
    await disableOperator(deps, operatorLogin('READ_ONLY'));
    expect((await visitor.get('/console/account')).statusCode).toBe(303);
    await enableOperator(deps, operatorLogin('READ_ONLY'));
    await changeRole(deps, operatorLogin('READ_ONLY'), 'READ_ONLY');
  });
});
