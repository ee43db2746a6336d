import { describe, expect, it, vi } from 'vitest';
import { LoginThrottle, userFailureKey } from '../../src/auth/brute-force.js';
import { PasswordHasher } from '../../src/auth/passwords.js';
import { useSecondApp, useTestApp } from '../helpers/app.js';
import { ensureTestUser } from '../helpers/auth.js';
import { FAST_AUTH_ENV, movableClock, partnerLogin, postToken } from './support.js';
import { scaled } from '../helpers/time-scale.js';

const clock = movableClock();
const getApp = useTestApp({
  env: {
    ...FAST_AUTH_ENV,
    LOGIN_USER_FAILURE_LIMIT: '3',
    LOGIN_IP_FAILURE_LIMIT: '6',
    LOGIN_FAILURE_WINDOW_SECONDS: '900',
  },
  clock,
});

// A second server process: its own app and its own connection pool on the same database.
const getSecond = useSecondApp(getApp);

describe('brute-force protection on the token endpoint', () => {
  it('counts failures per username across processes (any letter case) and then refuses even the right password', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'brandau');
    const from = { remoteAddress: '198.51.100.1' };
    expect((await postToken(t.app, partnerLogin(login, 'wrong-1'), from)).statusCode).toBe(401);
    expect(
      (await postToken(getSecond(), partnerLogin(login.toUpperCase(), 'wrong-2'), { remoteAddress: '198.51.100.2' }))
        .statusCode,
    ).toBe(401);
    expect((await postToken(t.app, partnerLogin(login, 'wrong-3'), { remoteAddress: '198.51.100.3' })).statusCode).toBe(
      401,
    );

    const locked = await postToken(getSecond(), partnerLogin(login, password), { remoteAddress: '198.51.100.4' });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['cache-control']).toBe('no-store');
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(locked.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    expect((await postToken(t.app, partnerLogin(login, password), from)).statusCode).toBe(429);

    clock.advance(901);
    expect((await postToken(t.app, partnerLogin(login, password), from)).statusCode).toBe(200);
  });

  it('a success clears the username counter', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'brandnz');
    const opts = { brand: 'brandnz', remoteAddress: '203.0.113.7' };
    for (let i = 0; i < 2; i++)
      expect((await postToken(t.app, partnerLogin(login, 'nope'), opts)).statusCode).toBe(401);
    expect((await postToken(getSecond(), partnerLogin(login, password), opts)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await postToken(t.app, partnerLogin(login, 'nope'), opts)).statusCode).toBe(401);
    expect((await postToken(t.app, partnerLogin(login, password), opts)).statusCode).toBe(200);
  });

  it('counts failures per client address across usernames, unknown ones included', async () => {
    const t = getApp();
    const { login, password } = await ensureTestUser(t, 'nomad');
    const attacker = { brand: 'nomad', remoteAddress: '192.0.2.66' };
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? t.app : getSecond();
      expect((await postToken(app, partnerLogin(`guess-${i}@example.test`, 'pw'), attacker)).statusCode).toBe(401);
    }
    expect((await postToken(t.app, partnerLogin(login, password), attacker)).statusCode).toBe(429);
    // The same user from another address is not locked out by the attacker.
    expect(
      (await postToken(t.app, partnerLogin(login, password), { brand: 'nomad', remoteAddress: '192.0.2.1' }))
        .statusCode,
    ).toBe(200);
  });
});

describe('counter housekeeping', () => {
  it('drops counters whose window has closed', async () => {
    const t = getApp();
    const keys = async () => (await t.context.db.selectFrom('login_failure').select('key').execute()).map((r) => r.key);
    expect(await keys()).toContain('ip:192.0.2.66');
    clock.advance(1000);
    expect(
      (await postToken(t.app, partnerLogin('late@example.test', 'pw'), { remoteAddress: '192.0.2.99' })).statusCode,
    ).toBe(401);
    expect((await keys()).sort()).toEqual(['ip:192.0.2.99', userFailureKey('Late@example.test')]);
  });
});

describe('slowing down repeated failures', () => {
  // A step longer than a sign-in on a loaded machine (one took 675 ms at load 18), so "no delay" is told apart.
  const STEP_MS = scaled(500);
  const getSlow = useTestApp({
    // Steps of the machine's scale: a request without a delay must answer within one step.
    env: {
      ...FAST_AUTH_ENV,
      LOGIN_SLOWDOWN_AFTER: '1',
      LOGIN_DELAY_STEP_MS: String(STEP_MS),
      LOGIN_MAX_DELAY_MS: String(2 * STEP_MS),
    },
  });

  it('answers later the more failures there were, up to the maximum delay', async () => {
    const t = getSlow();
    const { login } = await ensureTestUser(t, 'brandau');
    const timed = async () => {
      const started = performance.now();
      expect((await postToken(t.app, partnerLogin(login, 'wrong'))).statusCode).toBe(401);
      return performance.now() - started;
    };
    const first = await timed(); // 1 failure: no delay
    const second = await timed(); // 2 failures: one step
    const third = await timed(); // 3 failures: two steps (the maximum)
    expect(first).toBeLessThan(STEP_MS);
    expect(second).toBeGreaterThanOrEqual(STEP_MS - 5);
    expect(third).toBeGreaterThanOrEqual(2 * STEP_MS - 5);
  });
});

describe('counting before verifying (parallel sign-ins)', () => {
  const getStrict = useTestApp({
    env: { ...FAST_AUTH_ENV, LOGIN_USER_FAILURE_LIMIT: '5', LOGIN_IP_FAILURE_LIMIT: '1000' },
  });
  const failuresOf = async (key: string) =>
    (
      await getStrict()
        .context.db.selectFrom('login_failure')
        .select('failures')
        .where('key', '=', key)
        .executeTakeFirst()
    )?.failures;

  it('checks at most the limit of 30 parallel wrong guesses; the rest are refused unchecked', async () => {
    const t = getStrict();
    const { login } = await ensureTestUser(t, 'brandau');
    const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          postToken(t.app, partnerLogin(login, `wrong-${i}`), { remoteAddress: '198.51.100.30' }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      expect(verify).toHaveBeenCalledTimes(5);
    } finally {
      verify.mockRestore();
    }
    expect(await failuresOf(userFailureKey(login))).toBe(5);
  });

  it('refuses the right password right after 10 parallel failures, and the lock is not reset', async () => {
    const t = getStrict();
    const { login, password } = await ensureTestUser(t, 'brandnz');
    const from = { brand: 'brandnz', remoteAddress: '198.51.100.31' };
    await Promise.all(Array.from({ length: 10 }, () => postToken(t.app, partnerLogin(login, 'wrong'), from)));
    const right = await postToken(t.app, partnerLogin(login, password), from);
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(await failuresOf(userFailureKey(login))).toBe(5);
    expect((await postToken(t.app, partnerLogin(login, password), from)).statusCode).toBe(429);
  });

  it('a success does not erase an attempt taken after it (a guess racing the right password stays counted)', async () => {
    const t = getStrict();
    const throttle = new LoginThrottle(t.context);
    const rightOne = await throttle.reserve('racer@example.test', '198.51.100.32');
    const guess = await throttle.reserve('racer@example.test', '198.51.100.33');
    await throttle.succeeded(rightOne);
    await throttle.failed(guess);
    expect(await failuresOf(userFailureKey('racer@example.test'))).toBe(1);
    expect(await failuresOf('ip:198.51.100.32')).toBe(0);
    expect(await failuresOf('ip:198.51.100.33')).toBe(1);
  });

  it('an address over its limit takes nothing from the username it tries', async () => {
    const t = getStrict();
    const throttle = new LoginThrottle({
      ...t.context,
      config: {
        ...t.context.config,
        auth: { ...t.context.config.auth, bruteForce: { ...t.context.config.auth.bruteForce, ipFailureLimit: 1 } },
      },
    });
    await throttle.failed(await throttle.reserve('first@example.test', '198.51.100.34'));
    await expect(throttle.reserve('victim@example.test', '198.51.100.34')).rejects.toMatchObject({ status: 429 });
    expect(await failuresOf(userFailureKey('victim@example.test'))).toBe(0);
  });
});
