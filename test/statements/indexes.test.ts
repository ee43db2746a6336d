import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import {
  firstTransactionAt,
  hasTransactionsBetween,
  netCommittedBefore,
  transactionsCommittedBetween,
} from '../../src/policies/repository-statement.js';
import { paymentsReceivedBefore, paymentsReceivedBetween } from '../../src/statements/repository.js';
import { queryPlanOf } from '../helpers/query-plan.js';
import { createTestDatabase, DIALECT, type TestDatabase } from '../helpers/database.js';
import { issue, issueRequest, PARTNER_IDS } from '../policies/fixtures.js';

/** Every query of a statement finds its rows through an index (the engine's own plan), as policy reads do. */
describe(`statement reads use indexes (${DIALECT})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateToLatest(database.db);
    for (let i = 0; i < 20; i += 1) await issue(database.db, issueRequest());
  });
  afterAll(async () => {
    await database.destroy();
  });

  const planOf = (query: CompiledQuery) => queryPlanOf(database.db, query);

  it('for the month, the balance brought forward, the months and the payments', async () => {
    const nodes: RootOperationNode[] = [];
    const recording: KyselyPlugin = {
      transformQuery: (args) => (nodes.push(args.node), args.node),
      transformResult: (args) => Promise.resolve(args.result),
    };
    const db = database.db.withPlugin(recording);
    const scope = { partnerId: PARTNER_IDS.A, brandCode: 'brandau' as const };
    const range = { from: '2026-10-31T13:00:00.000Z', to: '2026-11-30T13:00:00.000Z' };
    expect(await transactionsCommittedBetween(db, scope, range)).toHaveLength(20);
    await netCommittedBefore(db, scope, 'ON_ACCOUNT', range.from);
    await firstTransactionAt(db, scope);
    await hasTransactionsBetween(db, scope, range);
    await paymentsReceivedBetween(db, scope, '2026-11-01', '2026-12-01');
    await paymentsReceivedBefore(db, scope, '2026-11-01');
    expect(nodes).toHaveLength(6);

    for (const node of nodes) {
      const query = database.db.getExecutor().compileQuery(node, { queryId: 'plan' });
      const plan = await planOf(query);
      if (DIALECT === 'postgres') {
        expect(plan, query.sql).not.toMatch(/Seq Scan/);
        expect(plan, query.sql).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
      } else {
        expect(plan, `${query.sql}\n${plan}`).not.toMatch(/\bSCAN (?!CONSTANT)/);
        expect(plan, query.sql).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
      }
    }
  });
});
