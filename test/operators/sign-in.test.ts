import { describe, expect, it } from 'vitest';
import {
  changeRole,
  createOperator,
  currentOperator,
  disableOperator,
  enableOperator,
  signOutEverywhere,
  unlock,
} from '../../src/operators/accounts.js';
import { SecondFactorRequired } from '../../src/operators/errors.js';
import { codeAt } from '../../src/operators/second-factor.js';
import { purgeOperatorLeftovers } from '../../src/operators/purge.js';
import { signIn } from '../../src/operators/sign-in.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { MINUTE, movableClock, operatorDeps } from './support.js';

const database = useMigratedTestDatabase();
const PASSWORD = 'correct-horse-battery';

async function auditOf(subjectId: number) {
  return database.db
    .selectFrom('operator_action')
    .selectAll()
    .where('subject_type', '=', 'operator')
    .where('subject_id', '=', String(subjectId))
    .orderBy('id')
    .execute();
}

describe('operator sign-in', () => {
  it('signs in with the right password (any letter case of the username); wrong password and unknown user look alike', async () => {
    const clock = movableClock();
    const deps = operatorDeps(database.db, clock);
    const { operator } = await createOperator(deps, {
      username: 'Alice.Smith',
      displayName: 'Alice Smith',
      role: 'UNDERWRITER',
      password: PASSWORD,
      secondFactor: false,
    });
    expect(await signIn(deps, { username: 'alice.smith', password: PASSWORD })).toEqual({ signedIn: operator });
    expect(await signIn(deps, { username: 'ALICE.SMITH', password: 'wrong-password' })).toEqual({
      refused: 'CREDENTIALS',
    });
    expect(await signIn(deps, { username: 'nobody', password: PASSWORD })).toEqual({ refused: 'CREDENTIALS' });
    const entries = await auditOf(operator.id);
    expect(entries.map((e) => [e.action, e.operator_id, e.reason])).toEqual([
      ['operator.create', 0, null],
      ['operator.sign_in', operator.id, null],
      ['operator.sign_in_failed', 0, 'PASSWORD'],
    ]);
    const everything = JSON.stringify(await database.db.selectFrom('operator_action').selectAll().execute());
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain('wrong-password');
  });

  it('locks after 5 failures in a row (even the right password is refused), until 15 minutes pass or an unlock', async () => {
    const clock = movableClock();
    const deps = operatorDeps(database.db, clock);
    const { operator } = await createOperator(deps, {
      username: 'bob',
      displayName: 'Bob',
      role: 'SUPPORT',
      password: PASSWORD,
      secondFactor: false,
    });
    for (let i = 0; i < 4; i += 1)
      expect(await signIn(deps, { username: 'bob', password: `wrong-${i}` })).toEqual({ refused: 'CREDENTIALS' });
    // A success resets the count.
    expect(await signIn(deps, { username: 'bob', password: PASSWORD })).toHaveProperty('signedIn');
    for (let i = 0; i < 5; i += 1)
      expect(await signIn(deps, { username: 'bob', password: `wrong-${i}` })).toEqual({ refused: 'CREDENTIALS' });
    expect(await signIn(deps, { username: 'bob', password: PASSWORD })).toEqual({ refused: 'LOCKED' });
    clock.at += 15 * MINUTE - 1;
    expect(await signIn(deps, { username: 'bob', password: PASSWORD })).toEqual({ refused: 'LOCKED' });
    clock.at += 1;
    expect(await signIn(deps, { username: 'bob', password: PASSWORD })).toEqual({ signedIn: operator });
    const actions = (await auditOf(operator.id)).map((e) => e.action);
    expect(actions.filter((a) => a === 'operator.locked')).toHaveLength(1);

    for (let i = 0; i < 5; i += 1) await signIn(deps, { username: 'bob', password: `wrong-${i}` });
    expect(await signIn(deps, { username: 'bob', password: PASSWORD })).toEqual({ refused: 'LOCKED' });
    await unlock(deps, 'BOB');
    expect(await signIn(deps, { username: 'bob', password: PASSWORD })).toEqual({ signedIn: operator });
    expect((await auditOf(operator.id)).map((e) => e.action)).toContain('operator.unlock');
  });

  it('parallel guesses never pass the limit: at most 5 passwords are checked before the lock', async () => {
    const deps = operatorDeps(database.db, movableClock());
    const { operator } = await createOperator(deps, {
      username: 'carol',
      displayName: 'Carol',
      role: 'READ_ONLY',
      password: PASSWORD,
      secondFactor: false,
    });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn(deps, { username: 'carol', password: `guess-${i}` })),
    );
    expect(outcomes.every((o) => 'refused' in o)).toBe(true);
    const checked = (await auditOf(operator.id)).filter((e) => e.reason === 'PASSWORD');
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(await signIn(deps, { username: 'carol', password: PASSWORD })).toEqual({ refused: 'LOCKED' });
  });

  it('with a second factor: the current code (±1 step) signs in, a missing, wrong or reused code does not', async () => {
    const clock = movableClock();
    const deps = operatorDeps(database.db, clock);
    const created = await createOperator(deps, {
      username: 'dana',
      displayName: 'Dana',
      role: 'SENIOR_UNDERWRITER',
      password: PASSWORD,
      secondFactor: true,
    });
    const secret = created.secondFactor!.secret;
    expect(created.secondFactor!.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(created.secondFactor!.uri).toContain('algorithm=SHA1&digits=6&period=30');
    const row = await database.db
      .selectFrom('operator')
      .select('totp_secret_sealed')
      .where('id', '=', created.operator.id)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret_sealed).not.toContain(secret);

    const code = codeAt(secret, new Date(clock.at));
    expect(await signIn(deps, { username: 'dana', password: PASSWORD })).toEqual({ refused: 'CREDENTIALS' });
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await signIn(deps, { username: 'dana', password: PASSWORD, code: wrong })).toEqual({
      refused: 'CREDENTIALS',
    });
    expect(await signIn(deps, { username: 'dana', password: 'wrong-password', code })).toEqual({
      refused: 'CREDENTIALS',
    });
    expect(await signIn(deps, { username: 'dana', password: PASSWORD, code })).toEqual({
      signedIn: created.operator,
    });
    // The same code again, within its window: refused.
    expect(await signIn(deps, { username: 'dana', password: PASSWORD, code })).toEqual({ refused: 'CREDENTIALS' });
    // The next step's code, typed 20 s into this step (window +1): accepted; then this step's own is old.
    clock.at += 20_000;
    const next = codeAt(secret, new Date(clock.at + 30_000));
    expect(await signIn(deps, { username: 'dana', password: PASSWORD, code: next })).toHaveProperty('signedIn');
    expect(
      await signIn(deps, { username: 'dana', password: PASSWORD, code: codeAt(secret, new Date(clock.at)) }),
    ).toEqual({
      refused: 'CREDENTIALS',
    });
    // Two steps away is outside the window.
    clock.at += 5 * MINUTE;
    expect(
      await signIn(deps, { username: 'dana', password: PASSWORD, code: codeAt(secret, new Date(clock.at + 60_000)) }),
    ).toEqual({ refused: 'CREDENTIALS' });
    expect(
      await signIn(deps, { username: 'dana', password: PASSWORD, code: codeAt(secret, new Date(clock.at)) }),
    ).toHaveProperty('signedIn');
    const reasons = (await auditOf(created.operator.id)).map((e) => e.reason).filter(Boolean);
    expect(reasons).toEqual([
      'SECOND_FACTOR',
      'SECOND_FACTOR',
      'PASSWORD',
      'SECOND_FACTOR_REPLAYED',
      'SECOND_FACTOR_REPLAYED',
      'SECOND_FACTOR',
    ]);
    const everything = JSON.stringify(await database.db.selectFrom('operator_action').selectAll().execute());
    expect(everything).not.toContain(code);
    expect(everything).not.toContain(secret);
  });

  it('in production a second factor is required: none set up is refused, and none can be created without one', async () => {
    const clock = movableClock();
    const staging = operatorDeps(database.db, clock);
    const production = operatorDeps(database.db, clock, { production: true });
    await createOperator(staging, {
      username: 'erin',
      displayName: 'Erin',
      role: 'SUPPORT',
      password: PASSWORD,
      secondFactor: false,
    });
    expect(await signIn(production, { username: 'erin', password: PASSWORD })).toEqual({
      refused: 'SECOND_FACTOR_REQUIRED',
    });
    expect(await signIn(production, { username: 'erin', password: 'wrong-password' })).toEqual({
      refused: 'CREDENTIALS',
    });
    await expect(
      createOperator(production, {
        username: 'frank',
        displayName: 'Frank',
        role: 'SUPPORT',
        password: PASSWORD,
        secondFactor: false,
      }),
    ).rejects.toBeInstanceOf(SecondFactorRequired);
    const withCode = await createOperator(production, {
      username: 'grace',
      displayName: 'Grace',
      role: 'SUPPORT',
      password: PASSWORD,
      secondFactor: true,
    });
    const code = codeAt(withCode.secondFactor!.secret, clock());
    expect(await signIn(production, { username: 'grace', password: PASSWORD, code })).toEqual({
      signedIn: withCode.operator,
    });
  });

  it('a disabled operator cannot sign in, and its session is no longer current; enabled again it can', async () => {
    const clock = movableClock();
    const deps = operatorDeps(database.db, clock);
    const { operator } = await createOperator(deps, {
      username: 'heidi',
      displayName: 'Heidi',
      role: 'UNDERWRITER',
      password: PASSWORD,
      secondFactor: false,
    });
    const signedInAt = clock().toISOString();
    expect(await currentOperator(database.db, operator.id, signedInAt)).toEqual(operator);
    await disableOperator(deps, 'heidi');
    expect(await signIn(deps, { username: 'heidi', password: PASSWORD })).toEqual({ refused: 'CREDENTIALS' });
    expect(await currentOperator(database.db, operator.id, signedInAt)).toBeUndefined();
    await enableOperator(deps, 'heidi');
    expect(await signIn(deps, { username: 'heidi', password: PASSWORD })).toEqual({ signedIn: operator });
    expect(await changeRole(deps, 'heidi', 'read_only')).toMatchObject({ role: 'READ_ONLY' });
    expect(await currentOperator(database.db, operator.id, signedInAt)).toMatchObject({ role: 'READ_ONLY' });
  });

  it('sign out everywhere: sessions signed in before it are no longer current, later ones are', async () => {
    const clock = movableClock();
    const deps = operatorDeps(database.db, clock);
    const { operator } = await createOperator(deps, {
      username: 'ivan',
      displayName: 'Ivan',
      role: 'SUPPORT',
      password: PASSWORD,
      secondFactor: false,
    });
    const earlier = clock().toISOString();
    clock.at += MINUTE;
    await signOutEverywhere(deps, operator, clock().toISOString());
    expect(await currentOperator(database.db, operator.id, earlier)).toBeUndefined();
    clock.at += MINUTE;
    expect(await currentOperator(database.db, operator.id, clock().toISOString())).toEqual(operator);
    const last = (await auditOf(operator.id)).at(-1)!;
    expect([last.action, last.operator_id]).toEqual(['operator.sign_out_everywhere', operator.id]);
  });

  it('an unknown username, and a disabled operator, answer exactly as a known one: locked after 5 failures too', async () => {
    const clock = movableClock();
    const deps = operatorDeps(database.db, clock);
    const { operator } = await createOperator(deps, {
      username: 'jack',
      displayName: 'Jack',
      role: 'SUPPORT',
      password: PASSWORD,
      secondFactor: false,
    });
    await createOperator(deps, {
      username: 'kim',
      displayName: 'Kim',
      role: 'SUPPORT',
      password: PASSWORD,
      secondFactor: false,
    });
    await disableOperator(deps, 'kim');
    const answers = async (username: string, password: string) => {
      const seen: unknown[] = [];
      for (let i = 0; i < 6; i += 1)
        seen.push(await signIn(deps, { username, password: i < 5 ? `wrong-${i}` : password }));
      return seen;
    };
    const known = await answers('jack', PASSWORD);
    expect(known).toEqual([...Array<unknown>(5).fill({ refused: 'CREDENTIALS' }), { refused: 'LOCKED' }]);
    expect(await answers('No.Such.User', PASSWORD)).toEqual(known);
    expect(await answers('kim', PASSWORD)).toEqual(known);
    const stored = JSON.stringify(await database.db.selectFrom('operator_unknown_sign_in').selectAll().execute());
    expect(stored).not.toMatch(/no\.such\.user/i);
    expect(await signIn(deps, { username: 'no.such.user', password: PASSWORD })).toEqual({ refused: 'LOCKED' });

    clock.at += 15 * MINUTE;
    expect(await signIn(deps, { username: 'jack', password: PASSWORD })).toEqual({ signedIn: operator });
    expect(await signIn(deps, { username: 'no.such.user', password: PASSWORD })).toEqual({ refused: 'CREDENTIALS' });
    // Idle counters of unknown names go after a day (not while locked).
    expect(await purgeOperatorLeftovers(deps, 100)).toMatchObject({ unknownSignIns: 0 });
    clock.at += 24 * 60 * MINUTE + 1;
    expect((await purgeOperatorLeftovers(deps, 100)).unknownSignIns).toBeGreaterThanOrEqual(1);
    expect(await database.db.selectFrom('operator_unknown_sign_in').selectAll().execute()).toEqual([]);
  });
});
