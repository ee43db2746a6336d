import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { findPolicy } from '../../src/policies/repository.js';
import { queryPlanOf } from '../helpers/query-plan.js';
import { createTestDatabase, DIALECT, type TestDatabase } from '../helpers/database.js';
import { issue, issueRequest, PARTNER_IDS } from './fixtures.js';

/**
 * Reads must not slow down as policies accumulate: every query of a policy read must find its
 * rows through an index, never by scanning a table. Checked on the engine's own query plan.
 */
describe(`policy reads use indexes (${DIALECT})`, () => {
  let database: TestDatabase;
  let policyNumber: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateToLatest(database.db);
    for (let i = 0; i < 20; i += 1) policyNumber = (await issue(database.db, issueRequest())).policyNumber;
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('for the summary and the details', async () => {
    // The read runs compiled queries (db/reusable-query.ts): they are recorded as they are run.
    const queries: CompiledQuery[] = [];
    const db = database.db;
    const recording = new Proxy(db, {
      get: (target, key) => {
        if (key === 'executeQuery') return (query: CompiledQuery) => (queries.push(query), target.executeQuery(query));
        const value = Reflect.get(target, key) as unknown;
        // Kysely's private fields are only readable with the real object as `this`.
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const policy = await findPolicy(recording, { policyNumber, brandCode: 'brandau', partnerId: PARTNER_IDS.A });
    expect(policy?.policyNumber).toBe(policyNumber);
    expect(queries).toHaveLength(1);

    for (const query of queries) {
      const plan = await queryPlanOf(database.db, query);
      if (DIALECT === 'postgres') {
        // Every index scan must look rows up by a condition, not walk a whole index in order.
        const scans = plan.match(/(Index Scan|Index Only Scan|Bitmap Index Scan) (using|on)/g) ?? [];
        expect(plan, query.sql).not.toMatch(/Seq Scan/);
        expect(scans.length, query.sql).toBeGreaterThan(0);
        expect((plan.match(/Index Cond:/g) ?? []).length, `${query.sql}\n${plan}`).toBe(scans.length);
      } else {
        expect(plan, query.sql).not.toMatch(/\bSCAN (?!CONSTANT)/);
        expect(plan, query.sql).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
      }
    }
  });
});
