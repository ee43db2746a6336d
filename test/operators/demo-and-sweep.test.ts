import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.js';
import { OPERATOR_ROLES } from '../../src/operators/model.js';
import { demoOperatorPassword, demoOperatorUsername, seedDemoOperators } from '../../src/operators/demo.js';
import { operatorDepsFor } from '../../src/operators/deps.js';
import { OperatorSessionStore } from '../../src/operators/session-store.js';
import { signIn } from '../../src/operators/sign-in.js';
import { prepareDatabase, startServer } from '../../src/server.js';
import { useTestApp } from '../helpers/app.js';
import { until } from '../helpers/polling.js';
import { sweepServerConfig } from '../helpers/sweep-server.js';
import { FAST_AUTH_ENV } from '../auth/support.js';

const getApp = useTestApp({ env: { ...FAST_AUTH_ENV, DEMO_DATA: 'true' } });

describe('demo operators (staging) and the sweep of expired sessions', () => {
  it('one demo operator per role, no second factor, signs in with the documented password; seeded once', async () => {
    const t = getApp();
    await prepareDatabase(t.context); // a second start changes nothing
    const rows = await t.context.db
      .selectFrom('operator')
      .select(['username', 'role', 'is_demo', 'totp_secret_sealed'])
      .where('is_demo', '=', 1)
      .orderBy('username')
      .execute();
    expect(rows).toHaveLength(OPERATOR_ROLES.length);
    expect(rows.every((r) => r.totp_secret_sealed === null)).toBe(true);
    const deps = operatorDepsFor(t.context);
    for (const role of OPERATOR_ROLES) {
      const outcome = await signIn(deps, {
        username: demoOperatorUsername(role),
        password: demoOperatorPassword(role),
      });
      expect(outcome).toMatchObject({ signedIn: { username: demoOperatorUsername(role), role } });
    }
    // Production seeds none, and refuses a demo operator's sign-in without a second factor.
    const production = { ...t.context, config: { ...t.context.config, env: 'production' as const } };
    await seedDemoOperators(production);
    expect(
      await signIn(operatorDepsFor(production), {
        username: demoOperatorUsername('SUPPORT'),
        password: demoOperatorPassword('SUPPORT'),
      }),
    ).toEqual({ refused: 'SECOND_FACTOR_REQUIRED' });
  });

  it("each server's sweep deletes expired console sessions and keeps live ones", async () => {
    const t = getApp();
    // A session saved two hours ago with an hour's cookie has expired; one saved now has not.
    const save = (id: string, savedAt: number) =>
      new Promise<void>((resolve, reject) =>
        new OperatorSessionStore(t.context.db, () => new Date(savedAt)).set(
          id,
          { cookie: { originalMaxAge: 3_600_000 } },
          (error) => (error ? reject(error instanceof Error ? error : new Error('session store failed')) : resolve()),
        ),
      );
    await save('expired-session-id', Date.now() - 2 * 3_600_000);
    await save('live-session-id', Date.now());
    const count = async () => (await t.context.db.selectFrom('operator_session').select('expires_at').execute()).length;
    expect(await count()).toBe(2);
    const db = connectDatabase(t.database.database);
    try {
      const server = await startServer(sweepServerConfig(t.database.database), { db, logger: false });
      try {
        await until(async () => (await count()) === 1, 'the sweep to delete the expired session');
      } finally {
        await server.close();
      }
    } finally {
      await db.destroy();
    }
  });
});
